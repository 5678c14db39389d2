import Synchronization
import SyncSchedule
import Testing

/// The one sync loop carrying out the schedule at a source: what it asks the source to do, in
/// which order, and when it stops. The source here records the calls and answers from a script.
@Suite(.timeLimit(.minutes(5)))
struct SyncLoopTests {
    final class ScriptedSource: RosterSource, Sendable {
        let wakeup = SyncWakeup()
        private let state: Mutex<(calls: [String], answers: [SyncRound], following: Bool)>
        private let made: AsyncStream<String>.Continuation
        /// Each call as it is made.
        let madeCalls: AsyncStream<String>

        init(answers: [SyncRound], following: Bool = false) {
            state = Mutex(([], answers, following))
            (madeCalls, made) = AsyncStream.makeStream(of: String.self)
        }

        var calls: [String] { state.withLock { $0.calls } }
        func isFollowing() -> Bool { state.withLock { $0.following } }
        func pullRound() -> SyncRound { answer("pull") }
        func pushRound() -> SyncRound { answer("push") }
        func reportRound() { record("report") }

        private func record(_ call: String) {
            state.withLock { $0.calls.append(call) }
            made.yield(call)
        }

        private func answer(_ call: String) -> SyncRound {
            record(call)
            return state.withLock { state in state.answers.isEmpty ? .answered(.ok) : state.answers.removeFirst() }
        }
    }

    /// The first `count` calls, waited for as they come: no clock of its own (the suite's time
    /// limit is the hang detector), so a test process whose other tests hold the cooperative
    /// threads for minutes only makes this wait longer.
    func first(_ count: Int, of source: ScriptedSource) async -> [String] {
        var calls: [String] = []
        for await call in source.madeCalls {
            calls.append(call)
            if calls.count == count { break }
        }
        return calls
    }

    static let slow = SyncSchedule<ContinuousClock.Instant>.Configuration(pullInterval: .seconds(600))

    @Test func aCycleIsPullPushReportAndARecordedChangeIsPushedAtOnce() async {
        let source = ScriptedSource(answers: [])
        let loop = Task { await SyncLoop.run(source, configuration: Self.slow) }
        defer { loop.cancel() }
        #expect(await first(3, of: source) == ["pull", "push", "report"])
        source.wakeup.nudge()
        #expect(await first(1, of: source) == ["push"], "the change, not a whole cycle, and not 10 minutes later")
    }

    @Test func whileAFollowChannelBringsThePullsTheIntervalOnlyPushesAndReports() async {
        let source = ScriptedSource(answers: [], following: true)
        let loop = Task { await SyncLoop.run(source, configuration: .init(pullInterval: .milliseconds(20))) }
        defer { loop.cancel() }
        let calls = await first(6, of: source)
        #expect(calls == ["push", "report", "push", "report", "push", "report"], "no pull: the channel brings them")
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
        #expect(await first(1, of: source) == ["pull"])
        let failedAt = ContinuousClock.now
        source.wakeup.nudge()
        // After the backoff, everything again: a full cycle.
        #expect(await first(3, of: source) == ["pull", "push", "report"])
        #expect(ContinuousClock.now - failedAt >= .milliseconds(250), "the nudge waited for the backoff")
    }
}
