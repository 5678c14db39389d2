import CheckInCore
import Foundation
import HubAPI
@testable import HubServer
import KioskTestSupport
import Testing

/// The exports' data: SQLite and PostgreSQL read attendance and the hub's log alike.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking) struct ExportStoreTests {
    typealias Contract = StoreContractTests

    @Test(arguments: StoreContractTests.kinds) func attendanceListsEveryGuestWithTheirFirstAdmissionEntriesAndLastExit(kind: String) async throws {
        let (store, directory) = try await Contract.makeStore(kind)
        defer { directory.remove() }
        let event = try await Contract.seed(store, guests: 3, reentry: true)
        _ = try await store.ingest(event: event, items: [
            Contract.upload("a", "G1", 1_000_000),
            Contract.upload("c", "G1", 2_000_000),                     // single entry again: refused, not an entry
            Contract.upload("b", "G3", 1_500_000),
            Contract.upload("b", "G3", 1_600_000, direction: .exit),
            Contract.upload("a", "G3", 2_500_000),                     // re-entry
        ], uploader: Contract.uploader, now: .now())
        let rows = try await store.attendance(event: "ev1")
        #expect(rows.map(\.code) == ["G1", "G2", "G3"])
        #expect(rows[0].firstEntry == Timestamp(milliseconds: Contract.base + 1_000_000))
        #expect(rows[0].firstStation == "Door a")
        #expect(rows[0].firstOperator == "Op a")
        #expect(rows[0].entries == 1)
        #expect(rows[0].lastExit == nil)
        #expect(rows[0].accessType == "General")
        #expect(rows[1].firstEntry == nil && rows[1].entries == 0)
        #expect(rows[2].firstStation == "Door b")
        #expect(rows[2].entries == 2)
        #expect(rows[2].lastExit == Timestamp(milliseconds: Contract.base + 1_600_000))
        #expect(rows[2].accessType == "Staff pass")
        await store.close()
    }

    @Test(arguments: StoreContractTests.kinds) func theHubLogHoldsUploadsRefusalsUndosAndActionsInOrder(kind: String) async throws {
        let (store, directory) = try await Contract.makeStore(kind)
        defer { directory.remove() }
        let event = try await Contract.seed(store)
        try await store.addStaff(StaffInfo(id: "st_test", email: "olga@example.org", name: "Olga", role: .organizer), passwordHash: "x", audit: nil)
        let first = Timestamp(milliseconds: Contract.base + 5_000_000)
        _ = try await store.ingest(event: event, items: [Contract.upload("a", "G1", 1_000_000), Contract.upload("a", "NOPE", 1_100_000)],
                                   uploader: Contract.uploader, now: first)
        let later = first.adding(milliseconds: 60_000)
        _ = try await store.undo(event: event, items: [UndoUpload(key: IdempotencyKey(deviceID: "a", guestID: "G1", scannedAt: Timestamp(milliseconds: Contract.base + 1_000_000)),
                                                                 undoneAt: later, station: "Door a", operatorName: "Op a")],
                                 caller: Contract.uploader, now: later)
        let olga = StaffInfo(id: "st_test", email: "olga@example.org", name: "Olga", role: .organizer)
        try await store.recordAction(OrganizerAction(eventID: "ev1", actor: olga, kind: .guestRevoked, subject: "G2", detail: "leaked",
                                                     at: later.adding(milliseconds: 1_000)))
        let log = try await store.hubLog(event: "ev1")
        #expect(log.map(\.kind) == [.checkIn, .unknownCode, .undo, .organizerAction])
        #expect(log[0].outcome == "accepted" && log[0].guestID == "G1" && log[0].account == "olga@example.org")
        #expect(log[0].scannedAt == Timestamp(milliseconds: Contract.base + 1_000_000))
        #expect(log[1].outcome == "rejected" && log[1].detail.hasPrefix("unknown_code"))
        #expect(log[3].outcome == "guest_revoked" && log[3].detail == "leaked" && log[3].operatorName == "Olga" && log[3].scannedAt == nil)
        await store.close()
    }
}
