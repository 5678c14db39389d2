import Synchronization
import SyncSchedule
import Testing

/// The one sync loop carrying out the schedule at a source: what it asks the source to do, in
/// which order, and when it stops. The source here records the calls and answers from a script.
struct SyncLoopTests {
    final class ScriptedSource: RosterSource, Sendable {
        let wakeup = SyncWakeup()
        private let state: Mutex<(calls: [String], answers: [SyncRound], following: Bool)>

        init(answers: [SyncRound], following: Bool = false) { state = Mutex(([], answers, following)) }

        var calls: [String] { state.withLock { $0.calls } }
        func isFollowing() -> Bool { state.withLock { $0.following } }
        func pullRound() -> SyncRound { answer("pull") }
        func pushRound() -> SyncRound { answer("push") }
        func reportRound() { state.withLock { $0.calls.append("report") } }

        private func answer(_ call: String) -> SyncRound {
            state.withLock { state in
                state.calls.append(call)
                return state.answers.isEmpty ? .answered(.ok) : state.answers.removeFirst()
            }
        }

        /// Waits until `count` calls were made (up to 2 minutes: a hang detector, generous for a
        /// test process whose other tests may hold the cooperative threads a while).
        func waitForCalls(_ count: Int) async -> [String] {
            let deadline = ContinuousClock.now + .seconds(120)
            while calls.count < count, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
            return calls
        }
    }

    static let slow = SyncSchedule<ContinuousClock.Instant>.Configuration(pullInterval: .seconds(600))

    @Test func aCycleIsPullPushReportAndARecordedChangeIsPushedAtOnce() async {
        let source = ScriptedSource(answers: [])
        let loop = Task { await SyncLoop.run(source, configuration: Self.slow) }
        defer { loop.cancel() }
        #expect(await source.waitForCalls(3) == ["pull", "push", "report"])
        source.wakeup.nudge()
        #expect(await source.waitForCalls(4) == ["pull", "push", "report", "push"], "the change, not a whole cycle, and not 10 minutes later")
    }

    @Test func whileAFollowChannelBringsThePullsTheIntervalOnlyPushesAndReports() async {
        let source = ScriptedSource(answers: [], following: true)
        let loop = Task { await SyncLoop.run(source, configuration: .init(pullInterval: .milliseconds(20))) }
        defer { loop.cancel() }
        let calls = await source.waitForCalls(6)
        #expect(!calls.contains("pull"), "\(calls)")
        #expect(calls.prefix(4) == ["push", "report", "push", "report"])
    }

    @Test func aSourceThatEndsStopsTheLoop() async {
        let source = ScriptedSource(answers: [.answered(.ok), .ended])
        await SyncLoop.run(source, configuration: Self.slow)
        #expect(source.calls == ["pull", "push"], "returns by itself: the source will not take the station any more")
    }

    @Test func aFailureBacksOffAndANudgeDoesNotShortenIt() async {
        let source = ScriptedSource(answers: [.answered(.failed)])
        let loop = Task { await SyncLoop.run(source, configuration: .init(pullInterval: .seconds(600), backoff: [.milliseconds(300)])) }
        defer { loop.cancel() }
        #expect(await source.waitForCalls(1) == ["pull"])
        let failedAt = ContinuousClock.now
        source.wakeup.nudge()
        // After the backoff, everything again: a full cycle.
        #expect(await source.waitForCalls(4) == ["pull", "pull", "push", "report"])
        #expect(ContinuousClock.now - failedAt >= .milliseconds(250), "the nudge waited for the backoff")
    }
}
