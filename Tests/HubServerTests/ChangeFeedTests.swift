import Foundation
import Synchronization
import Testing
import KioskTestSupport
@testable import HubServer

/// The change feed in process, with a scripted source: what wakes a held request, and what does not.
///
/// Nothing here depends on how fast tasks get scheduled (the suite runs beside real processes on
/// a 2-core machine, where a starved pool once delayed a task by 17 s): a wait expected to wake
/// has a deadline far beyond the time limit, so `.changed` can only come from a wake, and what
/// must not wake is checked on the hold itself.
@Suite(.hangGuard) struct ChangeFeedTests {
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
    /// Beyond the suite's time limit: a wait that ends `.changed` was woken, not timed out.
    static let never = Duration.seconds(3_600)

    func feed(maximumHeld: Int = 10) -> ChangeFeed { ChangeFeed(source: source, maximumHeld: maximumHeld) }

    /// Starts a wait of `event` in its own task; its value is how the wait ended and how long it took.
    func waiting(_ feed: ChangeFeed, _ event: String, for limit: Duration = never) -> Task<(ChangeFeed.Wake, Duration), Never> {
        let hold = feed.hold(event: event)
        return Task {
            guard var hold else { return (.ended, .zero) }
            defer { feed.release(hold) }
            let start = ContinuousClock.now
            let wake = await feed.wait(&hold, until: start + limit)
            return (wake, ContinuousClock.now - start)
        }
    }

    /// Until `count` started waits are waiting in the feed.
    func settle(_ feed: ChangeFeed, waiting count: Int = 1) async throws {
        while feed.waiting < count { try await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func aReportWakesTheHoldsOfItsEventAndNoOther() async throws {
        let feed = feed()
        let one = waiting(feed, "ev1"), other = waiting(feed, "ev2")
        try await settle(feed, waiting: 2)
        feed.changed(event: "ev1", sequence: nil)
        #expect(await one.value.0 == .changed)
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
        #expect(feed.hasChanged(hold))
        #expect(await feed.wait(&hold, until: .now + Self.never) == .changed)
        // Seen now: the next wait waits.
        #expect(!feed.hasChanged(hold))
    }

    @Test func aWaitWithNothingReportedEndsAtItsDeadline() async throws {
        let (wake, took) = await waiting(feed(), "ev1", for: .milliseconds(300)).value
        #expect(wake == .timedOut)
        #expect(took >= .milliseconds(300))
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

    @Test func liveStreamsHoldPlacesOfTheirOwnAndNeverTheStations() async throws {
        let feed = ChangeFeed(source: source, maximumHeld: 1, maximumStreams: 2)
        let streams = [try #require(feed.hold(event: "ev1", pool: .dashboards)), try #require(feed.hold(event: "ev1", pool: .dashboards))]
        #expect(feed.hold(event: "ev1", pool: .dashboards) == nil, "the dashboards' places are taken")
        let station = try #require(feed.hold(event: "ev1"), "a station's long-poll is still held")
        #expect(feed.hold(event: "ev1") == nil)
        #expect(feed.held == 1 && feed.heldStreams == 2)
        streams.forEach(feed.release)
        feed.release(station)
        #expect(feed.held == 0 && feed.heldStreams == 0)
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
        #expect(await wait.value.0 == .ended)
        #expect(feed.held == 0)
        #expect(feed.waiting == 0)
        // A later report finds no stale waiter to resume.
        feed.changed(event: "ev1", sequence: nil)
    }

    @Test func whileReportsAreIncompleteAPollWakesAHeldEventWhoseNewestChangeGrew() async throws {
        let feed = feed()
        feed.reportsEveryChange(false)
        source.latest.withLock { $0["ev1"] = 7 }
        var hold = try #require(feed.hold(event: "ev1"))
        defer { feed.release(hold) }
        // The first poll of an event has no baseline: it wakes (the change may predate the hold).
        await feed.pollOnce()
        #expect(feed.hasChanged(hold))
        _ = await feed.wait(&hold, until: .now + Self.never)
        // Nothing new: no wake.
        await feed.pollOnce()
        #expect(!feed.hasChanged(hold))
        // Another process committed: the poll wakes the event, and a waiting request with it.
        let waiter = waiting(feed, "ev1")
        try await settle(feed)
        source.latest.withLock { $0["ev1"] = 8 }
        await feed.pollOnce()
        #expect(feed.hasChanged(hold))
        #expect(await waiter.value.0 == .changed)
        // Only held events are polled: the waiter's hold is given back, ev1's remains.
        source.polls.withLock { $0 = 0 }
        await feed.pollOnce()
        #expect(source.polls.withLock { $0 } == 1)
    }

    @Test func aReportedChangeWithItsSequenceIsNotWokenAgainByThePoll() async throws {
        let feed = feed()
        feed.reportsEveryChange(false)
        source.latest.withLock { $0["ev1"] = 12 }
        feed.changed(event: "ev1", sequence: 12)
        let hold = try #require(feed.hold(event: "ev1"))
        defer { feed.release(hold) }
        await feed.pollOnce()
        #expect(!feed.hasChanged(hold))
    }

    @Test func theReturnOfCompleteReportsWakesEveryone() async throws {
        let feed = feed()
        feed.reportsEveryChange(true)
        let hold = try #require(feed.hold(event: "ev1"))
        defer { feed.release(hold) }
        let waiter = waiting(feed, "ev2")
        try await settle(feed)
        // The listener drops and comes back: whatever happened meanwhile may have been missed.
        feed.reportsEveryChange(false)
        feed.reportsEveryChange(true)
        #expect(feed.hasChanged(hold))
        #expect(await waiter.value.0 == .changed)
    }

    /// Starts a wait of `event` from `cursor` in its own task (see ``waiting(_:_:for:)``).
    func waiting(_ feed: ChangeFeed, _ event: String, after cursor: Int64) -> Task<ChangeFeed.Wake, Never> {
        let hold = feed.hold(event: event, cursor: cursor)
        return Task {
            guard var hold else { return .ended }
            defer { feed.release(hold) }
            return await feed.wait(&hold, until: .now + Self.never)
        }
    }

    @Test func whileReportsAreCompleteThePollWakesOnlyTheRequestsBehindTheNewestChange() async throws {
        let feed = feed()
        feed.reportsEveryChange(true)
        source.latest.withLock { $0["ev1"] = 40 }
        let behind = waiting(feed, "ev1", after: 39), current = waiting(feed, "ev1", after: 40)
        try await settle(feed, waiting: 2)
        // A notification that never came (or came late): the backstop wakes the request that has
        // not seen change 40, and leaves the one that has waiting.
        await feed.pollOnce()
        #expect(await behind.value == .changed)
        #expect(feed.waiting == 1)
        #expect(source.polls.withLock { $0 } == 1)
        await feed.pollOnce()
        #expect(feed.waiting == 1, "nothing newer than its cursor: no wake")
        feed.end()
        #expect(await current.value == .ended)
    }
}
