import CheckInCore
import Foundation
import HubAPI
import HubServer
import KioskTestSupport
import Logging
import RosterCSV
import Testing

/// Each hub migration opens a database of the previous version holding data and loses nothing
/// (DESIGN.md's storage contract), on both stores.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking) struct HubMigrationTests {
    /// A database at schema version 1 (only `0001_hub_schema` applied), as a hub before issue 15 left it.
    static func versionOne(_ kind: String, in directory: TemporaryDirectory) throws -> String {
        let url = kind == "sqlite" ? "sqlite:" + directory.appending("hub.db").path : try PostgresCluster.shared.get().createDatabase()
        let first = (kind == "sqlite" ? HubMigration.sqlite : HubMigration.postgres)[0]
        try DatabaseSQL.execute(url, first.sql)
        try DatabaseSQL.execute(url, """
            CREATE TABLE IF NOT EXISTS hub_migrations (name TEXT PRIMARY KEY, checksum TEXT NOT NULL);
            INSERT INTO hub_migrations (name, checksum) VALUES ('\(first.name)', '\(first.checksum)');
            INSERT INTO events (id, name, time_zone, window_ms, undo_ms) VALUES ('ev', 'Conf', 'UTC', 30000, 300000);
            INSERT INTO access_types (event_id, id, name, seq) VALUES ('ev', 'general', 'General', 1);
            INSERT INTO guests (event_id, id, code, name, access_type_id, seq) VALUES ('ev', 'G1', 'G1', 'Guest 1', 'general', 2);
            INSERT INTO staff (id, email, name, role, password_hash) VALUES ('s1', 'a@x.org', 'Alex', 'staff', 'x');
            INSERT INTO sessions (id, staff_id, device_id, station_name, access_hash, access_expires, refresh_hash, refresh_expires, created_at, last_used_at)
                VALUES ('old', 's1', 'door-1', 'Door 1', 'a-old', 9000000000000, 'r-old', 9000000000000, 1, 1),
                       ('new', 's1', 'door-1', 'Door 1', 'a-new', 9000000000000, 'r-new', 9000000000000, 1, 2);
            INSERT INTO check_ins (event_id, device_id, guest_id, scanned_at, station, operator_name, source, direction, status, decision, received_at, seq)
                VALUES ('ev', 'door-1', 'G1', 1760000000000, 'Door 1', 'Alex', 'camera', 'entry', 'accepted', 'admitted', 1760000000000, 3),
                       ('ev', 'door-1', 'LATE', 1760000000000, 'Door 1', 'Alex', 'camera', 'entry', 'rejected', 'unknown_code', 1760000000000, 4);
            """)
        return url
    }

    /// Every migration of the store's kind after the first `count` (later ones run too).
    static func names(after count: Int, _ kind: String) -> [String] {
        (kind == "sqlite" ? HubMigration.sqlite : HubMigration.postgres).dropFirst(count).map(\.name)
    }

    @Test(arguments: StoreContractTests.databaseKinds) func versionTwoKeepsEveryRowAndFreesUnknownCodeKeys(kind: String) async throws {
        let directory = TemporaryDirectory("hub-migrate")
        defer { directory.remove() }
        let url = try Self.versionOne(kind, in: directory)
        let store = try HubDatabase.open(url, logger: Logger(label: "test"))
        #expect(try await store.migrate() == Self.names(after: 1, kind))
        let now = Timestamp.now()
        // The station registration goes to the most recently used session holding the id.
        #expect(try await store.session(accessHash: "a-new", now: now)?.deviceID == "door-1")
        #expect(try await store.session(accessHash: "a-old", now: now)?.deviceID == nil)
        // The admission is kept; the unknown-code answer moved to the audit table.
        #expect(try await store.stats(event: "ev").checkedIn == 1)
        #expect(try DatabaseSQL.run(url, "SELECT guest_id || '/' || decision FROM check_in_attempts") == ["LATE/unknown_code"])
        // So the key is decided afresh once the guest is on the roster.
        _ = try await store.importRoster(event: "ev", rows: [
            RosterRow(line: 2, code: TicketCode(stored: "LATE"), name: "Late", email: "", company: "", accessType: "General"),
        ], replace: false, audit: nil)
        let event = try #require(try await store.event(id: "ev"))
        let again = CheckInUpload(key: IdempotencyKey(deviceID: "door-1", guestID: "LATE", scannedAt: Timestamp(milliseconds: 1_760_000_000_000)),
                                  station: "Door 1", operatorName: "Alex", source: .camera)
        let results = try await store.ingest(event: event, items: [again], uploader: Uploader(staffID: "s1", role: .staff, deviceID: "door-1"), now: now)
        #expect(results.map(\.decision) == [.admitted])
        // The same station signing in again with a secret binds the id (it had none).
        let claim = StationClaim(deviceID: "door-1", secretHash: Tokens.hash("secret-of-door-1"), name: "Door 1", sessionID: "old", staffID: "s1", now: now)
        #expect(try await store.registerStation(claim) == .registered)
        #expect(try await store.session(accessHash: "a-old", now: now)?.deviceID == "door-1")
        await store.close()
    }

    @Test(arguments: StoreContractTests.databaseKinds) func versionThreeKeepsEveryCheckInAndFlagsNoneOfThem(kind: String) async throws {
        let directory = TemporaryDirectory("hub-migrate")
        defer { directory.remove() }
        let url = try Self.versionOne(kind, in: directory)
        // Up to version two, as a hub before entry and exit left it, with an exit recorded then.
        let second = (kind == "sqlite" ? HubMigration.sqlite : HubMigration.postgres)[1]
        try DatabaseSQL.execute(url, second.sql)
        try DatabaseSQL.execute(url, """
            INSERT INTO hub_migrations (name, checksum) VALUES ('\(second.name)', '\(second.checksum)');
            INSERT INTO check_ins (event_id, device_id, guest_id, scanned_at, station, operator_name, source, direction, status, decision, received_at, seq)
                VALUES ('ev', 'door-2', 'G1', 1760000600000, 'Door 2', 'Sam', 'camera', 'exit', 'accepted', 'admitted', 1760000600000, 5);
            """)
        let store = try HubDatabase.open(url, logger: Logger(label: "test"))
        #expect(try await store.migrate() == Self.names(after: 2, kind))
        let stats = try await store.stats(event: "ev")
        #expect(stats.checkedIn == 1)
        #expect(stats.inside == 0, "the exit recorded before still counts")
        #expect(stats.flaggedExits == 0)
        #expect(try await store.flaggedExits(event: "ev").isEmpty)
        // A replay of the old exit gets its old answer, without a flag.
        let event = try #require(try await store.event(id: "ev"))
        let exit = CheckInUpload(key: IdempotencyKey(deviceID: "door-2", guestID: "G1", scannedAt: Timestamp(milliseconds: 1_760_000_600_000)),
                                 station: "Door 2", operatorName: "Sam", source: .camera, direction: .exit)
        let replay = try await store.ingest(event: event, items: [exit], uploader: Uploader(staffID: "s1", role: .organizer, deviceID: nil), now: .now())
        #expect(replay.map(\.status) == [.accepted])
        #expect(replay.map(\.flag) == [nil])
        await store.close()
    }

    @Test(arguments: StoreContractTests.databaseKinds) func anUpgradeMidEventLocksNobodyOutButNewStaffSeeOnlyWhatTheyAreGiven(kind: String) async throws {
        let directory = TemporaryDirectory("hub-migrate")
        defer { directory.remove() }
        let url = try Self.versionOne(kind, in: directory)
        let store = try HubDatabase.open(url, logger: Logger(label: "test"))
        _ = try await store.migrate()
        let alex = StaffInfo(id: "s1", email: "a@x.org", name: "Alex", role: .staff)
        // Alex, check-in staff before the upgrade, still sees the event and can still use the session.
        #expect(try await store.event(id: "ev", visibleTo: alex)?.id == "ev")
        #expect(try await store.events(visibleTo: alex).map(\.id) == ["ev"])
        #expect(try await store.session(accessHash: "a-new", now: .now())?.staff.id == "s1")
        #expect(try await store.staffAccounts(event: "ev").map(\.events) == [["ev"]])
        // Someone added after the upgrade sees nothing until assigned.
        let sam = StaffInfo(id: "s2", email: "sam@x.org", name: "Sam", role: .support)
        try await store.addStaff(sam, passwordHash: "x", audit: nil)
        #expect(try await store.event(id: "ev", visibleTo: sam) == nil)
        #expect(try await store.events(visibleTo: sam).isEmpty)
        await store.close()
    }
}
