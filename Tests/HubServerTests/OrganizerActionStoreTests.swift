import CheckInCore
import Foundation
import HubAPI
import HubServer
import KioskTestSupport
import Testing

/// The hub's log of organizer actions: SQLite and PostgreSQL keep it alike, per event, in order.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking) struct OrganizerActionStoreTests {
    @Test(arguments: StoreContractTests.kinds) func actionsAreKeptPerEventInTheOrderTheyWereTaken(kind: String) async throws {
        let (store, directory) = try await StoreContractTests.makeStore(kind)
        defer { directory.remove() }
        let olga = StaffInfo(id: "s1", email: "olga@example.org", name: "Olga", role: .organizer)
        let revoke = OrganizerAction(eventID: "ev1", actor: olga, kind: .guestRevoked, subject: "G1", detail: "ticket leaked",
                                     at: Timestamp(milliseconds: 1_790_000_001_000))
        let reset = OrganizerAction(eventID: nil, actor: olga, kind: .passwordReset, subject: "sam@example.org",
                                    at: Timestamp(milliseconds: 1_790_000_002_000))
        let checkIn = OrganizerAction(eventID: "ev1", actor: olga, kind: .manualCheckIn, subject: "G2",
                                      at: Timestamp(milliseconds: 1_790_000_000_000))
        for action in [revoke, reset, checkIn] { try await store.recordAction(action) }
        #expect(try await store.organizerActions(event: "ev1") == [revoke, checkIn])
        #expect(try await store.organizerActions(event: "ev2").isEmpty)
        await store.close()
    }
}
