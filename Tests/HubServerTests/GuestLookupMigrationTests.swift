import CheckInCore
import Foundation
import GRDB
import HubAPI
@testable import HubServer
@testable import HubStorage
import KioskTestSupport
import Logging
import Testing

/// 0010_guest_lookup adds indexes only: a database of the version before, holding guests,
/// check-ins (one not yet seen by stations) and an unknown-code attempt, loses nothing, and the
/// lookup, history and arrivals read it at once.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking) struct GuestLookupMigrationTests {
    @Test(arguments: StoreContractTests.databaseKinds) func theGuestLookupIndexesKeepEveryRowAndServeTheOldData(kind: String) async throws {
        let directory = TemporaryDirectory("hub-migrate")
        defer { directory.remove() }
        let url = kind == "sqlite" ? "sqlite:" + directory.appending("hub.db").path : try PostgresCluster.shared.get().createDatabase()
        let all = kind == "sqlite" ? HubMigration.sqlite : HubMigration.postgres
        let before = all.filter { $0.name < "0010" }
        try DatabaseSQL.execute(url, "CREATE TABLE hub_migrations (name TEXT PRIMARY KEY, checksum TEXT NOT NULL)")
        for migration in before {
            try DatabaseSQL.execute(url, migration.sql)
            try DatabaseSQL.execute(url, "INSERT INTO hub_migrations (name, checksum) VALUES ('\(migration.name)', '\(migration.checksum)')")
        }
        try DatabaseSQL.execute(url, """
            INSERT INTO events (id, name, time_zone, window_ms, undo_ms) VALUES ('ev', 'Conf', 'UTC', 30000, 300000);
            INSERT INTO access_types (event_id, id, name, seq) VALUES ('ev', 'general', 'General', 1);
            INSERT INTO guests (event_id, id, code, name, email, access_type_id, order_code, seq)
                VALUES ('ev', 'G1', 'G1', 'Ada Lovelace', 'Ada@Example.org', 'general', 'ORD-1', 2);
            INSERT INTO check_ins (event_id, device_id, guest_id, scanned_at, station, operator_name, source, direction, status, decision, received_at, seq)
                VALUES ('ev', 'door-1', 'G1', 1760000000000, 'Door 1', 'Alex', 'camera', 'entry', 'accepted', 'admitted', 1760000000000, 3);
            INSERT INTO check_in_attempts (event_id, device_id, guest_id, scanned_at, station, operator_name, source, direction, decision, received_at)
                VALUES ('ev', 'door-1', 'G1', 1759999990000, 'Door 1', 'Alex', 'camera', 'entry', 'unknown_code', 1759999990000);
            """)
        let store = try HubDatabase.open(url, logger: Logger(label: "test"))
        #expect(try await store.migrate() == all.map(\.name).filter { $0 >= "0010" })
        #expect(try await store.stats(event: "ev").checkedIn == 1)
        #expect(try await store.findGuests(event: "ev", matching: GuestQuery("ord-1"), limit: 5).map(\.guest.id) == ["G1"])
        #expect(try await store.findGuests(event: "ev", matching: GuestQuery("ada@example.ORG"), limit: 5).map(\.status) == [.inside])
        #expect(try await store.guestHistory(event: "ev", guestID: "G1", limit: 5).map(\.decision) == ["admitted", "unknown_code"])
        let from = Timestamp(milliseconds: 1_759_999_800_000)
        #expect(try await store.arrivals(event: "ev", from: from, until: from.adding(milliseconds: 3_600_000), bucketMilliseconds: 900_000)
            == [ArrivalCount(bucket: 0, entries: 1)])
        let indexes = kind == "sqlite"
            ? try DatabaseSQL.run(url, "SELECT name FROM sqlite_master WHERE type = 'index' AND name IN ('guests_order_code', 'guests_email_lower', 'check_ins_entries', 'check_in_attempts_guest', 'organizer_actions_subject') ORDER BY name")
            : try DatabaseSQL.run(url, "SELECT indexname FROM pg_indexes WHERE indexname IN ('guests_order_code', 'guests_email_lower', 'check_ins_entries', 'check_in_attempts_guest', 'organizer_actions_subject') ORDER BY indexname")
        #expect(indexes == ["check_in_attempts_guest", "check_ins_entries", "guests_email_lower", "guests_order_code", "organizer_actions_subject"])
        await store.close()
    }

    /// The arrivals chart counts from its partial index alone, never from the check-in rows.
    @Test func sqliteCountsArrivalsFromThePartialIndexAlone() async throws {
        let (store, directory, url) = try await StoreContractTests.makeStoreAt("sqlite")
        defer { directory.remove() }
        await store.close()
        let queue = try DatabaseQueue(path: String(url.dropFirst("sqlite:".count)))
        defer { try? queue.close() }
        let plan = try await queue.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + ArrivalsSQL.perBucket.replacingOccurrences(of: "$", with: "?"),
                             arguments: ["ev", 0, 900_000, 1]).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("USING COVERING INDEX check_ins_entries") }, "\(plan)")
    }
}
