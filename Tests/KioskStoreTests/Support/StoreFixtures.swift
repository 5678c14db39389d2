import CheckInCore
import Foundation
import GRDB
import KioskTestSupport
@testable import KioskStore

/// Committed databases of earlier schema versions, holding pending (unsynced) data.
enum StoreFixtures {
    static let folder = BuiltProducts.packageRoot.appendingPathComponent("Tests/KioskStoreTests/Fixtures")
    static let migrationsFolder = BuiltProducts.packageRoot.appendingPathComponent("Migrations/kiosk")

    /// Versions that have a committed fixture (`kiosk-vN.sqlite`).
    static var versions: [Int] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .compactMap { name -> Int? in
                guard name.hasPrefix("kiosk-v"), name.hasSuffix(".sqlite") else { return nil }
                return Int(name.dropFirst(7).dropLast(7))
            }
            .sorted()
    }

    /// A data directory holding a copy of the fixture of `version`.
    static func dataDirectory(version: Int) throws -> TemporaryDirectory {
        let directory = TemporaryDirectory("fixture-v\(version)")
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent("kiosk-v\(version).sqlite"),
            to: KioskDatabase.databaseURL(in: directory.url))
        return directory
    }

    /// What every fixture holds, whatever its version (checked after each upgrade).
    static let pendingKeys = ["fixture-device/g-1/1790000000000", "fixture-device/g-2/1790000005000", "fixture-device/g-3/1790000010123"]
    static let guestNames = ["José Müller", "Ødegård Ås", "王小明", "Zoë 🎟️ O'Brien", "Ἀθηνᾶ Παππᾶ"]
    /// Every name, e-mail and company the fixtures hold, and the folded text their search
    /// index held before 0008: none may be left in plaintext after an upgrade.
    static var guestData: [String] {
        let fields = guestNames + ["jose@example.com", "ACME", "o@example.no", "Fjord AS", "北京公司", "zoe@example.ie", "Ἀκαδημία"]
        return fields + guestNames.map(SearchText.fold)
    }

    /// Writes `kiosk-vN.sqlite` for every N up to the current number of migrations that has no
    /// fixture yet. Run once when adding a migration: `KIOSK_WRITE_FIXTURES=1 swift test --filter fixture`.
    static func writeMissing() throws {
        let all = try Migration.load(from: migrationsFolder)
        // Fixtures stop before the encrypted schema: from there on a fixture would need its key
        // file shipped beside it, and the upgrade of plaintext data is what they are for.
        for version in 1..<min(all.count + 1, KeyEnvelope.encryptedSchemaVersion) where !versions.contains(version) {
            let directory = TemporaryDirectory("make-fixture")
            defer { directory.remove() }
            let database = try KioskDatabase.open(dataDirectory: directory.url, migrations: Array(all.prefix(version)))
            try database.writer.writeWithoutTransaction { db in try seed(db) }
            try database.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            let target = folder.appendingPathComponent("kiosk-v\(version).sqlite")
            let copy = try DatabaseQueue(path: target.path)
            try database.writer.backup(to: copy)
            try copy.write { db in
                try db.execute(sql: "DELETE FROM schema_notice")
                // A fixture is what an earlier version wrote: no key envelope (that came with 0008).
                try db.execute(sql: "DROP TABLE IF EXISTS storage_keys; DROP TABLE IF EXISTS storage_store")
            }
            try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE; VACUUM") }
            try copy.close()
        }
    }

    /// Data written with the version-1 columns only, so every later version's fixture holds it too.
    static func seed(_ db: Database) throws {
        try db.execute(sql: "UPDATE settings SET value = 'fixture-device' WHERE key = 'device_id'")
        try db.execute(sql: """
            INSERT INTO access_types (id, name, reentry, updated_at) VALUES ('general', 'General', 0, 1), ('vip', 'VIP', 1, 1);
            INSERT INTO guests (id, code, name, email, company, access_type_id, updated_at) VALUES
                ('g-1', 'ABC1', 'José Müller', 'jose@example.com', 'ACME', 'vip', 1),
                ('g-2', 'ABC2', 'Ødegård Ås', 'o@example.no', 'Fjord AS', 'general', 1),
                ('g-3', 'ABC3', '王小明', '', '北京公司', 'general', 1),
                ('g-4', 'ABC4', 'Zoë 🎟️ O''Brien', 'zoe@example.ie', '', 'general', 1),
                ('g-5', 'ABC5', 'Ἀθηνᾶ Παππᾶ', '', 'Ἀκαδημία', 'general', 1);
            INSERT INTO check_ins (idempotency_key, guest_id, device_id, station, operator, source, direction, scanned_at) VALUES
                ('fixture-device/g-1/1790000000000', 'g-1', 'fixture-device', 'Door 1', 'Alex', 'camera', 'entry', 1790000000000),
                ('fixture-device/g-2/1790000005000', 'g-2', 'fixture-device', 'Door 1', 'Alex', 'typed', 'entry', 1790000005000),
                ('fixture-device/g-3/1790000010123', 'g-3', 'fixture-device', 'Door 1', 'Alex', 'scanner', 'entry', 1790000010123);
            INSERT INTO outbox (kind, ref, payload, created_at, sort_at, state) VALUES
                ('checkin', 'fixture-device/g-1/1790000000000', '{"guest_id":"g-1"}', 1790000000001, 1790000000000, 'pending'),
                ('checkin', 'fixture-device/g-2/1790000005000', '{"guest_id":"g-2"}', 1790000005001, 1790000005000, 'pending'),
                ('checkin', 'fixture-device/g-3/1790000010123', '{"guest_id":"g-3"}', 1790000010124, 1790000010123, 'pending');
            INSERT INTO audit_log (at, device_id, station, operator, source, action, code, guest_id, decision) VALUES
                (1790000000000, 'fixture-device', 'Door 1', 'Alex', 'camera', 'attempt', 'ABC1', 'g-1', 'admitted');
            """)
        // From version 5 on: payloads are the typed changes, and each knows its hub and event.
        if try db.columns(in: "outbox").contains(where: { $0.name == "hub_url" }) {
            try db.execute(sql: """
                INSERT INTO settings (key, value) VALUES ('hub_url', 'http://hub.example:8080'), ('sync_event_id', 'ev-fixture'),
                    ('sync_event_name', 'Fixture Gala');
                INSERT INTO outbox_events (hub_url, event_id, name) VALUES ('http://hub.example:8080', 'ev-fixture', 'Fixture Gala');
                UPDATE outbox SET hub_url = 'http://hub.example:8080', event_id = 'ev-fixture',
                    guest_id = (SELECT c.guest_id FROM check_ins c WHERE c.idempotency_key = outbox.ref),
                    payload = (SELECT json_object('key', json_object('deviceID', c.device_id, 'guestID', c.guest_id, 'scannedAt', c.scanned_at),
                        'station', c.station, 'operatorName', c.operator, 'source', c.source, 'direction', c.direction)
                        FROM check_ins c WHERE c.idempotency_key = outbox.ref);
                """)
        }
        // From version 3 on: a badge job the printer has not confirmed yet.
        if try db.tableExists("print_jobs") {
            try db.execute(sql: """
                INSERT INTO print_jobs (guest_id, code, queue, state, created_at, updated_at)
                VALUES ('g-1', 'ABC1', 'badges', 'queued', 1790000000002, 1790000000002)
                """)
        }
    }
}
