import CheckInCore
import HubAPI
import HubServer
import KioskTestSupport
import Testing

/// The live page's feed of the latest check-ins, on both stores: accepted movements only, newest
/// upload first, with the guest's name, and undone ones gone.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking) struct RecentCheckInsStoreTests {
    @Test(arguments: StoreContractTests.kinds) func theFeedListsAcceptedMovementsNewestUploadFirst(kind: String) async throws {
        let (store, directory) = try await StoreContractTests.makeStore(kind)
        defer { directory.remove() }
        let event = try await StoreContractTests.seed(store, guests: 3, reentry: true)
        let now = Timestamp.now()
        _ = try await store.ingest(event: event, items: [StoreContractTests.upload("a", "G1", 1_000_000)], uploader: StoreContractTests.uploader, now: now)
        // A duplicate from another door is not a movement.
        _ = try await store.ingest(event: event, items: [StoreContractTests.upload("b", "G1", 1_010_000)], uploader: StoreContractTests.uploader, now: now)
        // Uploaded later, scanned earlier: still the newest line (the feed follows arrivals).
        _ = try await store.ingest(event: event, items: [StoreContractTests.upload("b", "G2", 500_000)], uploader: StoreContractTests.uploader, now: now)
        _ = try await store.ingest(event: event, items: [StoreContractTests.upload("a", "G3", 2_000_000, direction: .exit)],
                                   uploader: StoreContractTests.uploader, now: now)

        let feed = try await store.recentCheckIns(event: "ev1", limit: 10)
        #expect(feed.map(\.guestName) == ["Guest 3", "Guest 2", "Guest 1"])
        #expect(feed.first?.direction == "exit")
        #expect(feed.last?.station == "Door a")
        #expect(feed.last?.operatorName == "Op a")
        #expect(feed.last?.source == "camera")
        #expect(try await store.recentCheckIns(event: "ev1", limit: 2).count == 2)
        #expect(try await store.recentCheckIns(event: "nope", limit: 10).isEmpty)
        await store.close()
    }
}
