import CheckInCore
import Foundation
import GRDB
import KioskTestSupport
import Testing
@testable import KioskStore

@Suite("Storage migrations")
struct MigrationTests {
    @Test("the embedded migrations are exactly the files of Migrations/kiosk")
    func embeddedEqualsFolder() throws {
        let folder = try Migration.load(from: StoreFixtures.migrationsFolder)
        #expect(Migration.embedded == folder)
        #expect(Migration.embedded.map(\.version) == Array(1...folder.count))
    }

    @Test("a fresh database reaches the version of the last migration file")
    func fresh() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try KioskDatabase.open(dataDirectory: directory.url)
        #expect(database.storage == .ready)
        #expect(try database.schemaVersion() == Migration.embedded.count)
        #expect(database.appliedAtOpen == Migration.embedded.map(\.name))
        #expect(!FileManager.default.fileExists(atPath: directory.appending("backups").path), "an empty database needs no backup")
        #expect(try database.takeUpdateNotice() == nil)
    }

    @Test("every earlier version's fixture upgrades with its pending check-ins intact", arguments: StoreFixtures.versions.filter { $0 < Migration.embedded.count })
    func upgradeFixture(version: Int) async throws {
        let directory = try StoreFixtures.dataDirectory(version: version)
        defer { directory.remove() }
        let database = try KioskDatabase.open(dataDirectory: directory.url)
        #expect(database.storage == .ready)
        #expect(try database.schemaVersion() == Migration.embedded.count)
        #expect(database.deviceID == "fixture-device")

        let pending = try database.outbox.pendingOutbox()
        #expect(pending.map(\.ref) == StoreFixtures.pendingKeys)
        // Every queued change reads back as the typed change it is, whatever payload it had.
        let keys = pending.map { entry -> String? in
            if case .success(.checkIn(let checkIn)) = entry.change { return checkIn.key.description }
            return nil
        }
        #expect(keys == StoreFixtures.pendingKeys)
        let names = try database.read { db in try String.fetchAll(db, sql: "SELECT kiosk_guest_field(sealed, 'name') FROM guests ORDER BY id") }
        #expect(names == StoreFixtures.guestNames)
        let checkIns = try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM check_ins") }
        #expect(checkIns == 3)
        if version >= 3 {
            let jobs = try database.read { db in try String.fetchAll(db, sql: "SELECT state FROM print_jobs") }
            #expect(jobs == ["queued"], "an unconfirmed badge job survives the upgrade")
        }
        // Data of the old version is searchable and still decides correctly after the upgrade.
        #expect(try database.searchIndex.search("jose muller").map(\.guest.id) == ["g-1"])
        let again = try await database.desk.checkIn(CheckInRequest(rawCode: "abc2", source: .typed, at: Timestamp(milliseconds: 1_790_000_900_000)))
        #expect(again.decision.kind == .alreadyCheckedIn)
        #expect(again.decision.previous?.by == "Alex")

        let backups = try FileManager.default.contentsOfDirectory(atPath: directory.appending("backups").path)
        #expect(backups.count == 1)
        #expect(backups.first?.hasPrefix("kiosk-v\(version)-") == true)
        #expect(backups.first?.hasSuffix(".sqlite.sealed") == true, "a backup of plaintext guest data is sealed")
        // The upgrade encrypted everything, and compacted the file: nothing readable is left.
        let leaks = PlaintextLeaks.find(StoreFixtures.guestData, under: directory.url)
        #expect(leaks.isEmpty, "\(leaks)")

        let status = try database.status()
        #expect(status.storage == .updated(from: version, to: Migration.embedded.count))
        #expect(try database.status().storage == .ready, "the update is reported once")
    }

    @Test func onlyTheTwoNewestBackupsAreKeptAndNoneIsReadableByOthers() throws {
        let directory = try StoreFixtures.dataDirectory(version: 1)
        defer { directory.remove() }
        let backups = directory.appending("backups")
        try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: true)
        // Three copies left by earlier upgrades, oldest first, readable by everyone as before.
        for (index, name) in ["kiosk-v0-20250101T000000.000Z.sqlite", "kiosk-v0-20250201T000000.000Z.sqlite", "kiosk-v0-20250301T000000.000Z.sqlite"].enumerated() {
            let file = backups.appendingPathComponent(name)
            FileManager.default.createFile(atPath: file.path, contents: Data("old".utf8), attributes: [.posixPermissions: 0o644])
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_735_689_600 + Double(index) * 86_400)], ofItemAtPath: file.path)
        }
        _ = try KioskDatabase.open(dataDirectory: directory.url)
        let kept = try FileManager.default.contentsOfDirectory(atPath: backups.path).sorted()
        #expect(kept.count == 2)
        #expect(kept.contains("kiosk-v0-20250301T000000.000Z.sqlite.sealed"), "the newest earlier copy stays beside the new one, sealed")
        #expect(kept.contains { $0.hasPrefix("kiosk-v1-") })
        for name in kept {
            let mode = try FileManager.default.attributesOfItem(atPath: backups.appendingPathComponent(name).path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(name): \(String(mode ?? 0, radix: 8))")
        }
        let folderMode = try FileManager.default.attributesOfItem(atPath: directory.url.path)[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
        let databaseMode = try FileManager.default.attributesOfItem(atPath: directory.appending("kiosk.sqlite").path)[.posixPermissions] as? Int
        #expect(databaseMode == 0o600)
    }

    @Test("queued walk-ins and undos of the old hand-built payloads become typed changes for the event selected then")
    func outboxPayloadsBecomeTyped() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let v4 = Array(Migration.embedded.prefix(4))
        let old = try KioskDatabase.open(dataDirectory: directory.url, migrations: v4)
        _ = try await old.write { db in
            try db.execute(sql: """
                INSERT INTO settings (key, value) VALUES ('hub_url', 'http://hub:1'), ('sync_event_id', 'ev1'), ('sync_event_name', 'Gala'),
                    ('station_name', 'Door 9');
                INSERT INTO access_types (id, name, updated_at) VALUES ('general', 'General', 1);
                INSERT INTO guests (id, code, name, access_type_id, walk_in, updated_at) VALUES ('w-1', 'W-ABC', 'Walk In', 'general', 1, 1);
                INSERT INTO check_ins (idempotency_key, guest_id, device_id, station, operator, source, direction, scanned_at, undone_at)
                    VALUES ('dev/w-1/1790000000000', 'w-1', 'dev', 'Door 9', 'Sam', 'walk_in', 'entry', 1790000000000, 1790000060000);
                INSERT INTO outbox (kind, ref, payload, created_at, sort_at) VALUES
                    ('walkin', 'w-1', '{"access_type_id":"general","code":"W-ABC","company":"","created_at":1790000000000,"device_id":"dev","email":"w@example.org","guest_id":"w-1","name":"Walk In","operator":"Sam","station":"Door 9"}', 1, 1789999999999),
                    ('checkin', 'dev/w-1/1790000000000', '{"guest_id":"w-1"}', 2, 1790000000000),
                    ('undo', 'dev/w-1/1790000000000', '{"device_id":"dev","idempotency_key":"dev/w-1/1790000000000","operator":"Sam","undone_at":1790000060000}', 3, 1790000060000);
                """)
        }
        let database = try KioskDatabase.open(dataDirectory: directory.url)
        #expect(database.storage == .ready)
        let entries = try database.outbox.pendingOutbox()
        #expect(entries.map(\.destination) == Array(repeating: SyncDestination(hubURL: "http://hub:1", eventID: "ev1"), count: 3))
        // A walk-in's id is the hub's (0011 gives the station its own, HubGuestIDs).
        let walkIn = database.stationGuestID(hubID: "w-1")
        #expect(try database.roster.hubID(ofGuest: walkIn) == "w-1")
        let key = IdempotencyKey(deviceID: "dev", guestID: walkIn, scannedAt: Timestamp(milliseconds: 1_790_000_000_000))
        let changes = entries.compactMap { try? $0.change.get() }
        #expect(changes == [
            .walkIn(WalkIn(guestID: walkIn, code: "W-ABC", name: "Walk In", email: "w@example.org", accessTypeID: "general", deviceID: "dev",
                           station: "Door 9", operatorName: "Sam", createdAt: Timestamp(milliseconds: 1_790_000_000_000))),
            .checkIn(CheckIn(key: key, station: "Door 9", operatorName: "Sam", source: .walkIn)),
            .undo(Undo(key: key, undoneAt: Timestamp(milliseconds: 1_790_000_060_000), station: "Door 9", operatorName: "Sam")),
        ])
        #expect(try database.outbox.pendingGroups().map(\.eventName) == ["Gala"])
    }

    @Test("a failing migration leaves the database at its previous version with all data and reports which one failed")
    func failingMigration() async throws {
        let directory = try StoreFixtures.dataDirectory(version: 1)
        defer { directory.remove() }
        let broken = Migration.embedded.prefix(1) + [
            Migration(name: "0002_broken", sql: "CREATE TABLE half_done (id INTEGER); ALTER TABLE guests ADD COLUMN nope NOPE NOT NULL;"),
        ]
        let database = try KioskDatabase.open(dataDirectory: directory.url, migrations: Array(broken))
        guard case .migrationFailed(let migration, let error) = database.storage else {
            Issue.record("expected a failed migration, got \(database.storage)")
            return
        }
        #expect(migration == "0002_broken")
        #expect(!error.isEmpty)
        #expect(try database.schemaVersion() == 1)
        #expect(try database.read { db in try db.tableExists("half_done") } == false, "the failed migration's transaction was rolled back")
        let status = try database.status()
        #expect(status.pending == 3)
        #expect(status.guests == 5)
        #expect(status.json.serialized.contains("\"state\":\"migration_failed\""))
        #expect(status.json.serialized.contains("\"action\":\"Contact support\""))
        await #expect(throws: StoreError.storageUnavailable(database.storage)) {
            _ = try await database.desk.checkIn(CheckInRequest(rawCode: "ABC4", source: .typed))
        }
        // The fixed release then upgrades the same database normally.
        let fixed = try KioskDatabase.open(dataDirectory: directory.url)
        #expect(fixed.storage == .ready)
        #expect(try fixed.outbox.pendingOutbox().count == 3)
    }

    @Test("a new station records each file's SHA-256, and an earlier release's FNV-1a records are still accepted")
    func oneChecksumWithTheEarlierOnesAccepted() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        _ = try KioskDatabase.open(dataDirectory: directory.url)
        let file = KioskDatabase.databaseURL(in: directory.url).path
        func recorded() throws -> [String: String] {
            let queue = try DatabaseQueue(path: file)
            defer { try? queue.close() }
            return try queue.read { db in
                Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT name, checksum FROM schema_migrations").map { ($0["name"] as String, $0["checksum"] as String) })
            }
        }
        #expect(try recorded() == Dictionary(uniqueKeysWithValues: Migration.embedded.map { ($0.name, $0.checksum) }))
        #expect(Migration.embedded.allSatisfy { $0.checksum.count == 64 })
        // As a station of the previous release recorded them: the store still opens.
        let queue = try DatabaseQueue(path: file)
        try queue.write { db in
            for migration in Migration.embedded {
                try db.execute(sql: "UPDATE schema_migrations SET checksum = ? WHERE name = ?", arguments: [migration.legacyChecksum, migration.name])
            }
        }
        try queue.close()
        #expect(try KioskDatabase.open(dataDirectory: directory.url).storage == .ready)
    }

    @Test("an edited shipped migration is refused")
    func checksumMismatch() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        _ = try KioskDatabase.open(dataDirectory: directory.url)
        var edited = Migration.embedded
        edited[0] = Migration(name: edited[0].name, sql: edited[0].sql + "\n-- edited after shipping\n")
        let database = try KioskDatabase.open(dataDirectory: directory.url, migrations: edited)
        #expect(database.storage == .checksumMismatch(migration: edited[0].name))
        #expect(!database.storage.isUsable)
    }

    @Test("a database from a newer station version is refused, not downgraded")
    func newerSchema() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        _ = try KioskDatabase.open(dataDirectory: directory.url)
        let database = try KioskDatabase.open(dataDirectory: directory.url, migrations: Array(Migration.embedded.prefix(1)))
        #expect(database.storage == .newerSchema(version: Migration.embedded.count, known: 1))
    }

    @Test("a file that is not a database gives a clear error")
    func notADatabase() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try Data("this is not sqlite".utf8).write(to: KioskDatabase.databaseURL(in: directory.url))
        #expect(throws: StoreError.self) { _ = try KioskDatabase.open(dataDirectory: directory.url) }
    }
}
