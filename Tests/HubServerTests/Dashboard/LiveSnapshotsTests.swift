import CheckInCore
import Foundation
import HubAPI
@testable import HubDashboard
@testable import HubServer
import KioskTestSupport
import Testing

/// The live pages' shared figures: one read serves every page of an event within its age, and
/// sharing never loses an update.
@Suite(.hangGuard) struct LiveSnapshotsTests {
    typealias Contract = StoreContractTests

    @Test func aSnapshotIsSharedWithinItsAgeAndAWaitFromItsGenerationWakesForAChangeItMissed() async throws {
        let (store, directory) = try await Contract.makeStore("memory")
        defer { directory.remove() }
        let event = try await Contract.seed(store)
        let feed = ChangeFeed(source: store, maximumHeld: 10)
        let snapshots = LiveSnapshots(store: store, feed: feed, maximumAge: .seconds(3_600))
        let first = try await snapshots.snapshot(event: event)
        #expect(first.stats.checkedIn == 0)

        // A check-in committed after the shared read began, and its report.
        _ = try await store.ingest(event: event, items: [Contract.upload("a", "G1", 1_000)], uploader: Contract.uploader, now: .now())
        feed.changed(event: event.id, sequence: nil)
        let shared = try await snapshots.snapshot(event: event)
        #expect(shared.stats.checkedIn == 0, "within its age the same read serves every page")

        // A stream waiting from the shared snapshot's generation is woken at once by what it missed.
        var hold = try #require(feed.hold(event: event.id))
        feed.rewind(&hold, to: shared.generation)
        #expect(await feed.wait(&hold, until: .now + .seconds(3_600)) == .changed)
        feed.release(hold)

        let fresh = LiveSnapshots(store: store, feed: feed, maximumAge: .zero)
        #expect(try await fresh.snapshot(event: event).stats.checkedIn == 1)
        await store.close()
    }

    @Test func aPageBeingLoadedTakesTheNewestFiguresAndRefreshesThemInTheBackground() async throws {
        let (store, directory) = try await Contract.makeStore("memory")
        defer { directory.remove() }
        let event = try await Contract.seed(store)
        let feed = ChangeFeed(source: store, maximumHeld: 10)
        let snapshots = LiveSnapshots(store: store, feed: feed, maximumAge: .zero)
        #expect(try await snapshots.snapshot(event: event, acceptingUpTo: .seconds(3_600)).stats.checkedIn == 0)

        _ = try await store.ingest(event: event, items: [Contract.upload("a", "G1", 1_000)], uploader: Contract.uploader, now: .now())
        // The page gets the figures it has, at once, and a refresh starts behind it.
        #expect(try await snapshots.snapshot(event: event, acceptingUpTo: .seconds(3_600)).stats.checkedIn == 0)
        var seen = 0
        for _ in 0..<500 where seen == 0 {
            try await Task.sleep(for: .milliseconds(10))
            seen = try await snapshots.snapshot(event: event, acceptingUpTo: .seconds(3_600)).stats.checkedIn
        }
        #expect(seen == 1, "the background refresh brought the check-in")
        // Nothing finished within the staleness: the page waits for a fresh read.
        #expect(try await snapshots.snapshot(event: event, acceptingUpTo: .zero).stats.checkedIn == 1)
        await store.close()
    }
}
