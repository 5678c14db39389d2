import CheckInCore
import Foundation
import GRDB
import Logging

/// Applies `NNNN_name.sql` migrations: checksums recorded, a backup before touching a database
/// that has data, each file in its own transaction, and a failure reported as a value.
struct Migrator {
    let migrations: [Migration]
    let backupsDirectory: URL
    /// Seals backups taken before guest data was encrypted.
    let cipher: GuestCipher
    let logger: Logger

    var latestVersion: Int { migrations.map(\.version).max() ?? 0 }

    /// Brings `writer` to the latest version, or says why it could not.
    func run(on writer: DatabasePool) throws -> (state: StorageState, applied: [String]) {
        var applied: [String] = []
        let state = try run(on: writer, applied: &applied)
        return (state, applied)
    }

    private func run(on writer: DatabasePool, applied appliedNow: inout [String]) throws -> StorageState {
        try writer.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at INTEGER NOT NULL);
                CREATE TABLE IF NOT EXISTS schema_notice (
                    id INTEGER PRIMARY KEY CHECK (id = 1), from_version INTEGER NOT NULL, to_version INTEGER NOT NULL);
                """)
        }
        let applied = try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT version, name, checksum FROM schema_migrations ORDER BY version")
                .map { (version: $0["version"] as Int, name: $0["name"] as String, checksum: $0["checksum"] as String) }
        }
        // The plan every database of the project follows (``MigrationPlan``): nothing is applied
        // over a schema a newer release made, or over a file edited after it shipped.
        let recorded = Dictionary(applied.map { ($0.name, $0.checksum) }, uniquingKeysWith: { first, _ in first })
        guard MigrationPlan.unknown(migrations, recorded: recorded).isEmpty else {
            return .newerSchema(version: applied.map(\.version).max() ?? 0, known: latestVersion)
        }
        let pending: [Migration]
        do {
            pending = try MigrationPlan.pending(migrations, recorded: recorded)
        } catch .checksumMismatch(let name) {
            logger.error("refusing to start: applied migration differs from the shipped one", metadata: ["migration": "\(name)"])
            return .checksumMismatch(migration: name)
        }
        let from = applied.map(\.version).max() ?? 0
        guard !pending.isEmpty else {
            sealPlaintextBackups()
            return .ready
        }

        if from > 0 { try backup(writer, version: from) }
        for migration in pending {
            do {
                try writer.writeWithoutTransaction { db in
                    try db.inTransaction(.immediate) {
                        try db.execute(sql: migration.sql)
                        try db.execute(
                            sql: "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
                            arguments: [migration.version, migration.name, migration.checksum, Timestamp.now().milliseconds])
                        return .commit
                    }
                }
                appliedNow.append(migration.name)
                logger.info("applied migration", metadata: ["migration": "\(migration.name)"])
            } catch {
                let message = (error as? DatabaseError)?.message ?? String(describing: error)
                logger.error("migration failed; database left at its previous version", metadata: ["migration": "\(migration.name)", "error": "\(message)"])
                if (error as? DatabaseError)?.resultCode == .SQLITE_FULL { throw StoreError.diskFull }
                return .migrationFailed(migration: migration.name, error: message)
            }
        }
        if pending.contains(where: \.compactsAfter) { try compact(writer) }
        sealPlaintextBackups()
        if from > 0 {
            let to = pending.map(\.version).max() ?? from
            try writer.write { db in
                try db.execute(sql: "INSERT OR REPLACE INTO schema_notice (id, from_version, to_version) VALUES (1, ?, ?)", arguments: [from, to])
            }
        }
        return .ready
    }

    /// Copies the database (consistently, through SQLite's backup API) before an upgrade.
    private func backup(_ writer: DatabasePool, version: Int) throws {
        try FileManager.default.createDirectory(at: backupsDirectory, withIntermediateDirectories: true)
        let stamp = Timestamp.now().iso8601.replacingOccurrences(of: ":", with: "").replacingOccurrences(of: "-", with: "")
        let target = backupsDirectory.appendingPathComponent("kiosk-v\(version)-\(stamp).sqlite")
        chmod(backupsDirectory.path, 0o700)
        FileManager.default.createFile(atPath: target.path, contents: nil, attributes: [.posixPermissions: 0o600])
        let copy = try DatabaseQueue(path: target.path)
        try writer.backup(to: copy)
        try copy.close()
        logger.info("backed up the database before upgrading", metadata: ["path": "\(target.path)"])
        pruneBackups()
    }

    /// The compaction step of a migration that says `-- kiosk:compact-after` (one that encrypts
    /// or removes guest data): outside its transaction, since SQLite cannot vacuum inside one,
    /// the file is rebuilt with freed pages overwritten and the write-ahead log truncated, so no
    /// page of the data as it was survives in the file or its log (``SecureDeletion/compact(_:)``).
    private func compact(_ writer: DatabasePool) throws {
        try writer.writeWithoutTransaction { db in try SecureDeletion.compact(db) }
        logger.info("compacted the database after migrating")
    }

    /// Backups of a schema older than the encrypted one hold guest data in plaintext, and those
    /// older than ``guestIDsWithoutCodesSchemaVersion`` the ticket codes of hub guests (their
    /// ids): each is sealed whole (AES-GCM under a key derived from the store's data key) into
    /// `….sqlite.sealed`, flushed, and only then is the plaintext copy removed.
    private func sealPlaintextBackups() {
        let files = (try? FileManager.default.contentsOfDirectory(at: backupsDirectory, includingPropertiesForKeys: nil)) ?? []
        let firstWithoutPlaintext = max(KeyEnvelope.encryptedSchemaVersion, Self.guestIDsWithoutCodesSchemaVersion)
        for file in files where file.pathExtension == "sqlite" && (Self.backupVersion(file) ?? 0) < firstWithoutPlaintext {
            do {
                try BackupSealer.seal(file, cipher: cipher)
                logger.info("sealed a backup taken before encryption", metadata: ["path": "\(file.path).sealed"])
            } catch {
                logger.warning("could not seal a plaintext backup; it is removed instead", metadata: ["path": "\(file.path)", "error": "\(error)"])
                try? FileManager.default.removeItem(at: file)
            }
        }
    }

    /// The first schema whose guest ids are never ticket codes (0011_station_guest_ids.sql).
    static let guestIDsWithoutCodesSchemaVersion = 11

    /// The schema version in a backup's name (`kiosk-v7-20261124T101010Z.sqlite`).
    static func backupVersion(_ url: URL) -> Int? {
        let name = url.lastPathComponent
        guard name.hasPrefix("kiosk-v") else { return nil }
        return Int(name.dropFirst("kiosk-v".count).prefix { $0.isNumber })
    }

    /// Backups kept: the newest ``keptBackups``; older copies of guest data only add to what a lost box leaks.
    static let keptBackups = 2

    private func pruneBackups() {
        let files = (try? FileManager.default.contentsOfDirectory(at: backupsDirectory, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        let backups = files.filter { $0.lastPathComponent.hasPrefix("kiosk-v") && ["sqlite", "sealed"].contains($0.pathExtension) }
        func date(_ url: URL) -> Date { (try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast }
        for old in backups.sorted(by: { date($0) > date($1) }).dropFirst(Self.keptBackups) {
            try? FileManager.default.removeItem(at: old)
            logger.info("removed an old backup", metadata: ["path": "\(old.path)"])
        }
    }
}
