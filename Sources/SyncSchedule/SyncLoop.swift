/// Carries out a ``SyncSchedule`` at a ``RosterSource``: the one sync loop of a station, whatever
/// its source. It performs each action, feeds the outcome back, and sleeps until the schedule's
/// next instant or a recorded change (``SyncWakeup``); it decides nothing itself.
public enum SyncLoop {
    /// Runs until the task is cancelled or the source ends (``SyncRound/ended``).
    public static func run<Source: RosterSource>(_ source: Source, configuration: SyncSchedule<ContinuousClock.Instant>.Configuration) async {
        var schedule = SyncSchedule(configuration: configuration, now: ContinuousClock.now)
        _ = schedule.followEvent(await source.isFollowing() ? .quiet : .lost, now: .now)
        var actions = schedule.tick(now: .now)
        while !Task.isCancelled {
            guard let action = actions.first else {
                actions = schedule.tick(now: .now)
                continue
            }
            actions.removeFirst()
            switch action {
            case .pull, .push:
                let round = action == .pull ? await source.pullRound() : await source.pushRound()
                guard case .answered(let answer) = round else { return }
                actions = schedule.answered(answer, now: .now)
            case .report:
                await source.reportRound()
            case .sleep(let until):
                let nudged = await source.wakeup.sleep(until: until)
                // Whether the pulls come from a follow channel decides what the next cycle does.
                _ = schedule.followEvent(await source.isFollowing() ? .quiet : .lost, now: .now)
                actions = nudged ? schedule.nudge(now: .now) : schedule.tick(now: .now)
            }
        }
    }
}
