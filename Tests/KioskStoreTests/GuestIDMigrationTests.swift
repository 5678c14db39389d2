import CheckInCore
import Foundation
import GRDB
import KioskTestSupport
import Testing
@testable import KioskStore

/// 0011_station_guest_ids.sql on a store written by the version before it, as a hub-synced
/// station left it: guest ids that were ticket codes, check-in keys, queued uploads, badge jobs,
/// the audit log and the archive re-keyed; what is queued still uploads under the hub's ids.
@Suite("Guest ids that are not ticket codes")
struct GuestIDMigrationTests {
    static let device = "dev-a"
    static let t0: Int64 = 1_790_000_000_000
    static let walkInID = "0192f3c4-1111-7222-8333-944455556666"

    /// A schema-10 store synced from a hub that knows its guests by their codes, with a check-in
    /// of CODE-1 queued and undone, CODE-2 admitted at another door, a walk-in queued, a badge
    /// job, and an archived check-in of an earlier event.
    static func seedVersion10(_ db: Database) throws {
        let key1 = "\(device)/CODE-1/\(t0)"
        let checkIn = #"{"direction":"entry","key":{"deviceID":"dev-a","guestID":"CODE-1","scannedAt":1790000000000},"operatorName":"Alex","source":"scanner","station":"Door A"}"#
        let undo = #"{"key":{"deviceID":"dev-a","guestID":"CODE-1","scannedAt":1790000000000},"operatorName":"Alex","station":"Door A","undoneAt":1790000060000}"#
        let walkIn = #"{"accessTypeID":"general","code":"W-XYZ","company":"","createdAt":1790000100000,"deviceID":"dev-a","email":"","guestID":"\#(walkInID)","name":"Walk In","operatorName":"Alex","station":"Door A"}"#
        try db.execute(sql: "UPDATE settings SET value = ? WHERE key = 'device_id'", arguments: [device])
        try db.execute(sql: """
            INSERT INTO settings (key, value) VALUES ('hub_url', 'http://hub:1'), ('sync_event_id', 'ev1'), ('sync_event_name', 'Gala'), ('sync_cursor', '9');
            INSERT INTO outbox_events (hub_url, event_id, name) VALUES ('http://hub:1', 'ev1', 'Gala');
            INSERT INTO access_types (id, name, updated_at) VALUES ('general', 'General', 1);
            INSERT INTO guests (id, code, sealed, access_type_id, walk_in, from_hub, updated_at) VALUES
                ('CODE-1', kiosk_code_digest('CODE-1'), kiosk_seal_guest('CODE-1', 'Ana One', '', ''), 'general', 0, 1, 1),
                ('CODE-2', kiosk_code_digest('CODE-2'), kiosk_seal_guest('CODE-2', 'Ben Two', '', ''), 'general', 0, 1, 1),
                ('\(walkInID)', kiosk_code_digest('W-XYZ'), kiosk_seal_guest('W-XYZ', 'Walk In', '', ''), 'general', 1, 0, 1),
                ('0192f3c4-aaaa-7bbb-8ccc-9dddeeeeffff', kiosk_code_digest('LOCAL-1'), kiosk_seal_guest('LOCAL-1', 'Local One', '', ''), 'general', 0, 0, 1);
            INSERT INTO check_ins (idempotency_key, guest_id, device_id, station, operator, source, direction, scanned_at, origin, undone_at) VALUES
                ('\(key1)', 'CODE-1', '\(device)', 'Door A', 'Alex', 'scanner', 'entry', \(t0), 'local', \(t0 + 60_000)),
                ('dev-b/CODE-2/\(t0 + 5)', 'CODE-2', 'dev-b', 'Door B', 'Bea', 'scanner', 'entry', \(t0 + 5), 'hub', NULL);
            INSERT INTO outbox (kind, ref, payload, created_at, sort_at, hub_url, event_id, guest_id) VALUES
                ('checkin', '\(key1)', kiosk_seal('\(checkIn)'), \(t0), \(t0), 'http://hub:1', 'ev1', 'CODE-1'),
                ('undo', '\(key1)', kiosk_seal('\(undo)'), \(t0 + 60_000), \(t0 + 60_000), 'http://hub:1', 'ev1', 'CODE-1'),
                ('walkin', '\(walkInID)', kiosk_seal('\(walkIn)'), \(t0 + 100_000), \(t0 + 99_999), 'http://hub:1', 'ev1', '\(walkInID)');
            INSERT INTO print_jobs (guest_id, code, queue, state, created_at, updated_at) VALUES ('CODE-1', kiosk_seal('CODE-1'), 'badge', 'printed', 1, 1);
            INSERT INTO audit_log (at, device_id, station, operator, source, action, code, guest_id, decision) VALUES
                (\(t0), '\(device)', 'Door A', 'Alex', 'scanner', 'attempt', kiosk_seal('CODE-1'), 'CODE-1', 'admitted');
            INSERT INTO check_ins_archive (event_id, idempotency_key, guest_id, device_id, station, operator, source, direction, scanned_at, archived_at)
                VALUES ('ev0', '\(device)/CODE-9/\(t0 - 86_400_000)', 'CODE-9', '\(device)', 'Door A', 'Alex', 'scanner', 'entry', \(t0 - 86_400_000), 1);
            """)
    }

    @Test("a hub-synced store of schema 10 keeps no code in clear and uploads what it queued under the keys the hub had")
    func upgradeFromVersion10() async throws {
        let directory = TemporaryDirectory("guest-ids")
        defer { directory.remove() }
        let key = StorageKeySource.keyFile(directory.appending("keys/station.key"))
        let old = try KioskDatabase.open(dataDirectory: directory.appending("data"), migrations: Array(Migration.embedded.prefix(10)), key: key)
        try await old.write { db in try Self.seedVersion10(db) }

        let database = try KioskDatabase.open(dataDirectory: directory.appending("data"), key: key)
        #expect(database.storage == .ready)
        let one = database.stationGuestID(hubID: "CODE-1"), two = database.stationGuestID(hubID: "CODE-2")
        let walkIn = database.stationGuestID(hubID: Self.walkInID)
        #expect(one.hasPrefix("h") && one.count == 33 && one != two)
        let ids = try database.read { db in try String.fetchAll(db, sql: "SELECT id FROM guests ORDER BY rowid") }
        #expect(ids == [one, two, walkIn, "0192f3c4-aaaa-7bbb-8ccc-9dddeeeeffff"], "a local import keeps its random id")

        // The door still decides by code, with the history it had.
        let again = try await database.desk.checkIn(CheckInRequest(rawCode: "code-2", source: .typed, at: Timestamp(milliseconds: Self.t0 + 600_000)))
        #expect(again.decision.kind == .alreadyCheckedIn && again.decision.previous?.station == "Door B")
        #expect(try database.roster.guest(code: "W-XYZ")?.guest.id == walkIn)

        // What is queued goes to the hub exactly as before: the hub's ids, the keys it had.
        let upload = try await database.outbox.uploadableOutbox(for: SyncDestination(hubURL: "http://hub:1", eventID: "ev1"), limit: 10)
        let hubKey = IdempotencyKey(deviceID: Self.device, guestID: "CODE-1", scannedAt: Timestamp(milliseconds: Self.t0))
        let changes = upload.compactMap { try? $0.change.get() }
        #expect(changes.count == 3)
        #expect(changes.contains { if case .checkIn(let c) = $0 { c.key == hubKey } else { false } })
        #expect(changes.contains { if case .undo(let u) = $0 { u.key == hubKey } else { false } })
        #expect(changes.contains { if case .walkIn(let w) = $0 { w.guestID == Self.walkInID && w.code == "W-XYZ" } else { false } })
        // … while the station's own rows name its own ids.
        #expect(try database.outbox.pendingOutbox().map(\.ref).sorted() == ["\(Self.device)/\(one)/\(Self.t0)", "\(Self.device)/\(one)/\(Self.t0)", walkIn].sorted())
        let keys = try database.read { db in try String.fetchAll(db, sql: "SELECT idempotency_key FROM check_ins ORDER BY scanned_at") }
        #expect(Array(keys.prefix(2)) == ["\(Self.device)/\(one)/\(Self.t0)", "dev-b/\(two)/\(Self.t0 + 5)"])
        let references = try database.read { db in
            try String.fetchAll(db, sql: """
                SELECT guest_id FROM print_jobs UNION ALL SELECT guest_id FROM audit_log WHERE guest_id IS NOT NULL AND at = \(Self.t0)
                UNION ALL SELECT guest_id FROM check_ins_archive
                """)
        }
        #expect(references == [one, one, database.stationGuestID(hubID: "CODE-9")])

        let leaks = PlaintextLeaks.find(["CODE-1", "CODE-2", "CODE-9", "W-XYZ"], under: directory.appending("data"))
        #expect(leaks.isEmpty, "\(leaks)")
        let backups = try FileManager.default.contentsOfDirectory(atPath: directory.appending("data/backups").path)
        #expect(backups.allSatisfy { $0.hasSuffix(".sealed") }, "the backup taken before holds the codes: sealed, \(backups)")
    }

    @Test("roster pages name guests as the hub does: stored under the station's ids, the same on every page")
    func rosterPagesMapped() async throws {
        let directory = TemporaryDirectory("guest-ids")
        defer { directory.remove() }
        let database = try KioskDatabase.open(dataDirectory: directory.url)
        try await database.selectSyncEvent(id: "ev", name: "Event", toleranceWindowMilliseconds: 30_000)
        let guest = Guest(id: "SECRET-1", code: TicketCode(stored: "SECRET-1"), name: "Ana", accessTypeID: "general")
        let other = Guest(id: "pos-77", code: TicketCode(stored: "SECRET-2"), name: "Ben", accessTypeID: "general")
        let at = Timestamp(milliseconds: Self.t0)
        let theirs = CheckIn(key: IdempotencyKey(deviceID: "dev-b", guestID: "SECRET-1", scannedAt: at), station: "Door B", operatorName: "Bea", source: .scanner)
        try await database.applyRoster([RosterDelta(accessTypes: [AccessType(id: "general", name: "General")], guests: [guest, other],
                                                    checkIns: [theirs], nextCursor: "1")], eventID: "ev", complete: false)
        try await database.applyRoster([RosterDelta(guests: [guest], undone: [(theirs.key.description, at)], nextCursor: "2")], eventID: "ev", complete: true)
        let id = database.stationGuestID(hubID: "SECRET-1")
        #expect(try database.read { db in try String.fetchAll(db, sql: "SELECT id FROM guests ORDER BY rowid") } == [id, database.stationGuestID(hubID: "pos-77")])
        #expect(try database.roster.hubID(ofGuest: id) == "SECRET-1")
        #expect(try database.roster.hubID(ofGuest: database.stationGuestID(hubID: "pos-77")) == "pos-77", "an id that is not the code is kept, sealed")
        let rows = try database.read { db in
            try Row.fetchAll(db, sql: "SELECT idempotency_key, undone_at FROM check_ins").map { "\($0["idempotency_key"] as String) \($0["undone_at"] as Int64? != nil)" }
        }
        #expect(rows == ["dev-b/\(id)/\(Self.t0) true"], "the hub's undo found the check-in under the station's key")
        #expect(try database.roster.guest(code: "SECRET-1")?.checkedIn == nil)
    }
}
