import CheckInCore
import HubAPI
import HubServer
import KioskTestSupport
import Testing

/// What the change feed polls, on both stores: an event's newest change grows with its changes
/// and with no other event's.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking) struct ChangeSourceContractTests {
    typealias Contract = StoreContractTests

    @Test(arguments: Contract.kinds) func theLatestChangeGrowsWithEveryChangeOfTheEventOnly(kind: String) async throws {
        let (store, directory) = try await Contract.makeStore(kind)
        defer { directory.remove() }
        #expect(try await store.latestChange(event: "ev1") == 0)
        let event = try await Contract.seed(store)
        let seeded = try await store.latestChange(event: "ev1")
        #expect(seeded > 0)
        _ = try await store.ingest(event: event, items: [Contract.upload("a", "G1", 0)], uploader: Contract.uploader, now: .now())
        let afterCheckIn = try await store.latestChange(event: "ev1")
        #expect(afterCheckIn > seeded)
        #expect(try await store.setRevoked(event: "ev1", guestID: "G2", revoked: true, action: nil))
        #expect(try await store.latestChange(event: "ev1") > afterCheckIn)
        // Another event's changes leave it alone.
        try await store.createEvent(EventSummary(id: "ev2", name: "Other"), audit: nil)
        try await store.upsertAccessType(event: "ev2", AccessType(id: "general", name: "General"), audit: nil)
        let now = try await store.latestChange(event: "ev1")
        #expect(try await store.latestChange(event: "ev2") > now)
        #expect(try await store.latestChange(event: "ev1") == now)
        await store.close()
    }
}
