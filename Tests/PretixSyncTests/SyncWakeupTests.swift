import PretixSync
import Testing

/// The pretix loop's sleep, woken by a recorded check-in (``SyncWakeup``).
struct SyncWakeupTests {
    @Test func aNudgeBeforeTheSleepIsKeptAndEndsItAtOnce() async {
        let wakeup = SyncWakeup()
        wakeup.nudge()
        let start = ContinuousClock.now
        #expect(await wakeup.sleep(until: .now + .seconds(60)))
        #expect(ContinuousClock.now - start < .seconds(5), "a hang detector: it returns at once")
    }

    @Test func aSleepWithoutANudgeEndsAtItsDeadline() async {
        let wakeup = SyncWakeup()
        let start = ContinuousClock.now
        #expect(await wakeup.sleep(until: .now + .milliseconds(100)) == false)
        #expect(ContinuousClock.now - start >= .milliseconds(100))
    }

    @Test func aNudgeDuringTheSleepWakesItAndTheNextSleepWaitsAgain() async {
        let wakeup = SyncWakeup()
        Task {
            try? await Task.sleep(for: .milliseconds(50))
            wakeup.nudge()
        }
        #expect(await wakeup.sleep(until: .now + .seconds(60)))
        #expect(await wakeup.sleep(until: .now + .milliseconds(50)) == false, "one nudge wakes one sleep")
    }

    @Test func cancellingTheSleeperEndsTheSleep() async {
        let wakeup = SyncWakeup()
        let sleeper = Task { await wakeup.sleep(until: .now + .seconds(60)) }
        try? await Task.sleep(for: .milliseconds(50))
        sleeper.cancel()
        #expect(await sleeper.value == false)
    }
}
