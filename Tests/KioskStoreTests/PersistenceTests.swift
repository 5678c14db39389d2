import CheckInCore
import Foundation
import GRDB
import KioskTestSupport
import Testing
@testable import KioskStore

@Suite("Persistence")
struct PersistenceTests {
    @Test("saving a guest twice with the same id updates it in place")
    func upsert() async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        try await station.database.roster.saveAccessType(AccessType(id: "general", name: "General"))
        let guest = Guest(id: "same", code: TicketCode(stored: "UP1"), name: "First", accessTypeID: "general")
        try await station.database.roster.saveGuest(guest)
        var changed = guest
        changed.name = "Second"
        try await station.database.roster.saveGuest(changed)
        #expect(try station.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM guests WHERE id = 'same'") } == 1)
        #expect(try station.database.roster.guest(id: "same")?.guest.name == "Second")
    }

    @Test("bulk-saved guests are searchable, and a changed name is re-indexed")
    func bulkSave() async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        let guests = (0..<50).map { Guest(id: "b\($0)", code: TicketCode(stored: "B\($0)"), name: "Bülk Persön \($0)", accessTypeID: "general") }
        try await station.database.roster.saveGuests(guests)
        #expect(try station.database.searchIndex.search("bulk person 17").map(\.guest.id) == ["b17"])
        var renamed = guests[3]
        renamed.name = "Ωmega Renamed"
        try await station.database.roster.saveGuests([renamed])
        #expect(try station.database.searchIndex.search("renamed").map(\.guest.id) == ["b3"])
        #expect(try station.database.searchIndex.search("persön 3").map(\.guest.id).contains("b3") == false)
        #expect(try station.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM settings WHERE key = 'search_index_deferred'") } == 0)
    }

    @Test("every field round-trips losslessly: Unicode, emoji, timestamps to the millisecond")
    func roundTrip() async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        let window = AccessType(id: "t", name: "Tág 🎫", reentry: true, validFrom: Timestamp(milliseconds: 1_790_000_000_001), validUntil: Timestamp(milliseconds: 1_790_000_999_999))
        try await station.database.roster.saveAccessType(window)
        let guest = Guest(id: "rt", code: TicketCode(stored: "RT-ÉÑ"), name: "Zoë 🎟️ O'Brien \"Q\" 王 مرحبا", email: "zoë@例え.jp",
                          company: "Ἀκαδημία", accessTypeID: "t", revoked: false, walkIn: true)
        try await station.database.roster.saveGuest(guest)
        let at = Timestamp(milliseconds: 1_790_000_123_457)
        let result = try await station.database.desk.checkIn(CheckInRequest(rawCode: "RT-ÉÑ", source: .scanner, operatorName: "Ana 🙂", station: "Puerta Ñ", at: at))
        #expect(result.decision == .admitted)

        let reopened = try KioskDatabase.open(dataDirectory: station.directory.url)
        #expect(try reopened.roster.guest(id: "rt")?.guest == guest)
        #expect(try reopened.roster.accessTypes().first { $0.id == "t" } == window)
        #expect(try reopened.roster.guest(id: "rt")?.checkedIn == PriorCheckIn(by: "Ana 🙂", station: "Puerta Ñ", deviceID: reopened.deviceID, at: at))
    }

    @Test("data and identity survive closing and reopening the station")
    func restart() async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        _ = try await station.database.desk.checkIn(CheckInRequest(rawCode: "ABC1", source: .camera))
        let reopened = try KioskDatabase.open(dataDirectory: station.directory.url)
        #expect(reopened.deviceID == station.database.deviceID)
        #expect(try reopened.status().pending == 1)
        #expect(try reopened.status().guests == 4)
        #expect(reopened.appliedAtOpen.isEmpty)
    }

    @Test("a full disk gives a descriptive error and loses nothing committed")
    func fullDisk() async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        let admitted = try await station.database.desk.checkIn(CheckInRequest(rawCode: "ABC1", source: .camera))
        // No tmpfs can be mounted inside every CI sandbox: cap the database at its current size,
        // which makes SQLite answer SQLITE_FULL exactly as a full file system does.
        try await station.database.write { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count")!
            try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        }
        let many = "name,code\n" + (0..<5_000).map { "Guest number \($0) with a long name,FULL\($0)" }.joined(separator: "\n")
        await #expect(throws: StoreError.diskFull) {
            _ = try await station.database.roster.importRoster(try RosterParserShim.parse(many))
        }
        #expect(StoreError.diskFull.description.contains("disk is full"))
        #expect(try station.database.outbox.pendingOutbox().map(\.ref) == [admitted.recorded!.key.description])
        #expect(try station.database.status().guests == 4)
        #expect(try station.database.integrityCheck() == "ok")
    }
}

import RosterCSV
enum RosterParserShim {
    static func parse(_ text: String) throws -> RosterFile { try RosterCSVParser.parse(Data(text.utf8)) }
}
