import Foundation
import Synchronization
import Testing
@testable import HubServer

/// The change feed in process, with a scripted source: what wakes a held request, and what does not.
///
/// Times are checked against deadlines far apart (a wake well before a 30 s deadline), never
/// tightly: the suite runs beside real processes on a 2-core machine.
@Suite(.timeLimit(.minutes(1))) struct ChangeFeedTests {
    /// A store stand-in: its newest change per event is set by the test; polls are counted.
    final class ScriptedSource: ChangeSource {
        let latest = Mutex([String: Int64]())
        let polls = Mutex(0)

        func reportChanges(to sink: any ChangeSink) async {
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3_600)) }
        }

        func latestChange(event: String) async throws -> Int64 {
            polls.withLock { $0 += 1 }
            return latest.withLock { $0[event] ?? 0 }
        }
    }

    let source = ScriptedSource()

    func feed(maximumHeld: Int = 10) -> ChangeFeed { ChangeFeed(source: source, maximumHeld: maximumHeld) }

    /// Starts a wait of `event` in its own task; its value is how the wait ended and how long it took.
    func waiting(_ feed: ChangeFeed, _ event: String, for seconds: Double = 30) -> Task<(ChangeFeed.Wake, Duration), Never> {
        let hold = feed.hold(event: event)
        return Task {
            guard var hold else { return (.ended, .zero) }
            defer { feed.release(hold) }
            let start = ContinuousClock.now
            let wake = await feed.wait(&hold, until: start + .milliseconds(Int64(seconds * 1000)))
            return (wake, ContinuousClock.now - start)
        }
    }

    /// Until `count` started waits are waiting in the feed.
    func settle(_ feed: ChangeFeed, waiting count: Int = 1) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while feed.waiting < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func aReportWakesTheHoldsOfItsEventAndNoOther() async throws {
        let feed = feed()
        let one = waiting(feed, "ev1"), other = waiting(feed, "ev2")
        try await settle(feed, waiting: 2)
        feed.changed(event: "ev1", sequence: nil)
        let (wake, took) = await one.value
        #expect(wake == .changed)
        #expect(took < .seconds(15))
        #expect(feed.held == 1, "the other event's request is still held")
        feed.end()
        #expect(await other.value.0 == .ended)
        #expect(feed.held == 0)
    }

    @Test func aChangeBetweenTakingTheHoldAndWaitingIsNotLost() async throws {
        let feed = feed()
        var hold = try #require(feed.hold(event: "ev1"))
        defer { feed.release(hold) }
        // What a request does: hold, read the page (empty), and meanwhile a commit is reported.
        feed.changed(event: "ev1", sequence: nil)
        let start = ContinuousClock.now
        #expect(await feed.wait(&hold, until: start + .seconds(30)) == .changed)
        #expect(ContinuousClock.now - start < .seconds(15))
        // Seen now: the next wait waits.
        #expect(await feed.wait(&hold, until: .now + .milliseconds(200)) == .timedOut)
    }

    @Test func aWaitWithNothingReportedEndsAtItsDeadline() async throws {
        let (wake, took) = await waiting(feed(), "ev1", for: 0.3).value
        #expect(wake == .timedOut)
        #expect(took >= .milliseconds(300))
        #expect(took < .seconds(15))
    }

    @Test func holdsAreBoundedAndGivenBack() async throws {
        let feed = feed(maximumHeld: 2)
        let first = try #require(feed.hold(event: "ev1"))
        let second = try #require(feed.hold(event: "ev1"))
        #expect(feed.hold(event: "ev2") == nil, "a third is refused: the request is answered at once")
        feed.release(first)
        let third = try #require(feed.hold(event: "ev2"))
        feed.release(second)
        feed.release(third)
        #expect(feed.held == 0)
    }

    @Test func endingTheFeedEndsEveryWaitAndRefusesNewHolds() async throws {
        let feed = feed()
        let waits = (0..<5).map { waiting(feed, "ev\($0 % 2)") }
        try await settle(feed, waiting: 5)
        feed.end()
        for wait in waits { #expect(await wait.value.0 == .ended) }
        #expect(feed.hold(event: "ev1") == nil)
    }

    @Test func aCancelledRequestStopsWaitingAndLeavesNothingBehind() async throws {
        let feed = feed()
        let wait = waiting(feed, "ev1")
        try await settle(feed)
        wait.cancel()
        let (wake, took) = await wait.value
        #expect(wake == .ended)
        #expect(took < .seconds(15))
        #expect(feed.waiting == 0)
        #expect(feed.held == 0)
        // A later report finds no stale waiter to resume.
        feed.changed(event: "ev1", sequence: nil)
    }

    @Test func whileReportsAreIncompleteAPollWakesAnEventWhoseNewestChangeGrew() async throws {
        let feed = feed()
        feed.reportsEveryChange(false)
        source.latest.withLock { $0["ev1"] = 7 }
        // The first poll of an event has no baseline: it wakes (the change may predate the hold).
        let first = waiting(feed, "ev1")
        try await settle(feed)
        await feed.pollOnce()
        #expect(await first.value.0 == .changed)
        // Nothing new: no wake.
        let second = waiting(feed, "ev1", for: 2)
        try await settle(feed)
        await feed.pollOnce()
        #expect(await second.value.0 == .timedOut)
        // Another process committed: the poll wakes the event.
        let third = waiting(feed, "ev1")
        try await settle(feed)
        source.latest.withLock { $0["ev1"] = 8 }
        await feed.pollOnce()
        #expect(await third.value.0 == .changed)
    }

    @Test func aReportedChangeWithItsSequenceIsNotWokenAgainByThePoll() async throws {
        let feed = feed()
        feed.reportsEveryChange(false)
        source.latest.withLock { $0["ev1"] = 12 }
        feed.changed(event: "ev1", sequence: 12)
        let wait = waiting(feed, "ev1", for: 2)
        try await settle(feed)
        await feed.pollOnce()
        #expect(await wait.value.0 == .timedOut)
    }

    @Test func completeReportsStopThePollingAndTheirReturnWakesEveryone() async throws {
        let feed = feed()
        feed.reportsEveryChange(true)
        let wait = waiting(feed, "ev1")
        try await settle(feed)
        await feed.pollOnce()
        #expect(source.polls.withLock { $0 } == 0, "LISTEN is up: nothing to poll")
        // The listener drops and comes back: whatever happened meanwhile may have been missed.
        feed.reportsEveryChange(false)
        feed.reportsEveryChange(true)
        #expect(await wait.value.0 == .changed)
    }
}
