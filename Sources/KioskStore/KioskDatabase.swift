import CheckInCore
import Foundation
import GRDB
import Logging

/// The station's SQLite database: roster, check-ins, outbox, settings, audit log.
///
/// Opening it applies the pending migrations first, before any other part of the station runs.
/// A failed or refused migration does not throw: ``storage`` says what happened, and the
/// station shows a diagnostic instead of scanning.
/// ```swift
/// let database = try KioskDatabase.open(dataDirectory: url)
/// guard database.storage.isUsable else { showDiagnostic(database.storage); return }
/// let result = try await database.checkIn(CheckInRequest(rawCode: "ABC123", source: .camera))
/// ```
/// GRDB's `DatabasePool` is the single writer: it serializes every write on its own queue, so
/// this type needs no lock of its own and is `Sendable`.
public final class KioskDatabase: Sendable {
    public let dataDirectory: URL
    public let storage: StorageState
    /// This station's identity, generated once and kept for the life of the data directory.
    public let deviceID: String
    /// The latest schema version known to this binary.
    public let latestVersion: Int
    /// The migrations this open applied, in order.
    public let appliedAtOpen: [String]
    let writer: DatabasePool
    let logger: Logger
    let searchCatchUp = SearchCatchUp()
    let backgroundSearchIndex: Bool
    let keys: KeyEnvelope.Unlocked
    /// Where this store's storage key came from.
    public let keySource: StorageKeySource
    /// The store's id, which names its default key file.
    public var storeID: String { keys.store }

    /// The database file inside the data directory.
    public static func databaseURL(in dataDirectory: URL) -> URL { dataDirectory.appendingPathComponent("kiosk.sqlite") }

    /// Opens (creating if needed) the station database in `dataDirectory` and migrates it.
    /// - Parameters:
    ///   - migrations: the migrations to apply; the embedded ones unless a test or a support
    ///     override (`KIOSK_MIGRATIONS_DIR`) says otherwise.
    ///   - key: where the storage key comes from (see ``StorageKeySource``); the data key it
    ///     unwraps is needed before any migration, since migrations seal guest data.
    ///   - backgroundSearchIndex: whether bulk writes start indexing their guests for search in
    ///     the background (tests turn it off to look at the state in between).
    /// - Throws: ``StoreError`` when the directory or the file cannot be used at all.
    public static func open(
        dataDirectory: URL,
        migrations: [Migration] = Migration.embedded,
        key: StorageKeySource = .resolve(),
        logger: Logger = Logger(label: "kiosk.store"),
        backgroundSearchIndex: Bool = true
    ) throws(StoreError) -> KioskDatabase {
        do {
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        } catch {
            throw .dataDirectoryUnusable(path: dataDirectory.path, reason: (error as NSError).localizedDescription)
        }
        try DataDirectory.requireOwnership(of: dataDirectory)
        DataDirectory.restrictAccess(to: dataDirectory)
        do {
            let functions = CipherFunctions()
            let writer = try DatabasePool(path: databaseURL(in: dataDirectory).path, configuration: configuration(functions))
            // A new database file gets the umask's mode: narrowed before its journals exist.
            chmod(databaseURL(in: dataDirectory).path, 0o600)
            let unlocked = try KeyEnvelope.unlock(writer, source: key, dataDirectory: dataDirectory)
            functions.install(unlocked.cipher)
            let migrator = Migrator(migrations: migrations, backupsDirectory: dataDirectory.appendingPathComponent("backups"),
                                    cipher: unlocked.cipher, logger: logger)
            let (storage, applied) = try migrator.run(on: writer)
            let deviceID = try storage.isUsable ? ensureDeviceID(writer) : (try? readDeviceID(writer)) ?? "unknown"
            return KioskDatabase(dataDirectory: dataDirectory, storage: storage, deviceID: deviceID,
                                 latestVersion: migrator.latestVersion, appliedAtOpen: applied, writer: writer, logger: logger,
                                 backgroundSearchIndex: backgroundSearchIndex, keys: unlocked, keySource: key)
        } catch {
            throw mapError(error)
        }
    }

    private init(dataDirectory: URL, storage: StorageState, deviceID: String, latestVersion: Int, appliedAtOpen: [String], writer: DatabasePool, logger: Logger,
                 backgroundSearchIndex: Bool, keys: KeyEnvelope.Unlocked, keySource: StorageKeySource) {
        self.keys = keys
        self.keySource = keySource
        self.appliedAtOpen = appliedAtOpen
        self.dataDirectory = dataDirectory
        self.storage = storage
        self.deviceID = deviceID
        self.latestVersion = latestVersion
        self.writer = writer
        self.logger = logger
        self.backgroundSearchIndex = backgroundSearchIndex
    }

    static func configuration(_ functions: CipherFunctions) -> Configuration {
        var config = Configuration()
        // Other kiosk processes (a `kiosk checkin` next to `kiosk run`) may hold the write lock briefly.
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            // WAL with synchronous=FULL fsyncs the log at every commit: a check-in reported to the
            // operator survives a power cut. (NORMAL would only protect against a crash of this
            // process, and could lose the last commits when the box loses power at the door.)
            try db.execute(sql: "PRAGMA synchronous = FULL")
            db.add(function: DatabaseFunction("kiosk_fold", argumentCount: 1, pure: true) { values in
                guard let text = String.fromDatabaseValue(values[0]) else { return nil }
                return SearchText.fold(text)
            })
            functions.register(on: db)
        }
        return config
    }

    private static func ensureDeviceID(_ writer: DatabasePool) throws -> String {
        try writer.write { db in
            if let existing = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = 'device_id'") { return existing }
            let id = UUID().uuidString.lowercased()
            try db.execute(sql: "INSERT INTO settings (key, value) VALUES ('device_id', ?)", arguments: [id])
            return id
        }
    }

    private static func readDeviceID(_ writer: DatabasePool) throws -> String? {
        try writer.read { db in try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = 'device_id'") }
    }

    /// The schema version recorded in the database.
    public func schemaVersion() throws(StoreError) -> Int {
        try wrap { try writer.read { db in try Int.fetchOne(db, sql: "SELECT MAX(version) FROM schema_migrations") ?? 0 } }
    }

    /// Reports "Storage updated vN → vM" once: returns the pending notice and clears it.
    public func takeUpdateNotice() throws(StoreError) -> (from: Int, to: Int)? {
        try wrap {
            try writer.write { db in
                guard let row = try Row.fetchOne(db, sql: "SELECT from_version, to_version FROM schema_notice WHERE id = 1") else { return nil }
                try db.execute(sql: "DELETE FROM schema_notice")
                return (row["from_version"] as Int, row["to_version"] as Int)
            }
        }
    }

    /// Throws ``StoreError/storageUnavailable(_:)`` unless the schema is usable.
    func requireUsable() throws(StoreError) {
        guard storage.isUsable else { throw .storageUnavailable(storage) }
    }

    /// Runs GRDB work, mapping its errors to ``StoreError``.
    func wrap<T>(_ work: () throws -> T) throws(StoreError) -> T {
        do { return try work() } catch { throw Self.mapError(error) }
    }

    func wrap<T>(_ work: () async throws -> T) async throws(StoreError) -> T {
        do { return try await work() } catch { throw Self.mapError(error) }
    }

    static func mapError(_ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? StorageKeyError { return .storageKey(error) }
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_FULL: return .diskFull
            case .SQLITE_CORRUPT, .SQLITE_NOTADB: return .corrupt(error.message ?? "not a database")
            case .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM:
                return .dataDirectoryUnusable(path: "", reason: error.message ?? "cannot open the database")
            default: return .database(error.message ?? "\(error.resultCode)")
            }
        }
        return .database(String(describing: error))
    }

    /// `PRAGMA integrity_check`: "ok" for a sound database.
    public func integrityCheck() throws(StoreError) -> String {
        try wrap { try writer.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "unknown" } }
    }

    /// Runs a read-only query against the database (tests, diagnostics).
    public func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws(StoreError) -> T {
        try wrap { try writer.read(body) }
    }

    /// Runs a write transaction of many guests (a roster page from the hub, a bulk save) with
    /// the writer's page cache at 32 MB instead of SQLite's 2 MB: the guests table and its three
    /// indexes outgrow 2 MB at a few thousand guests, and bulk writes then re-read and spill pages
    /// (32 MB made a 100k-guest roster write 15-30 % faster). Only for its duration: kept for
    /// every write, the larger cache made single check-ins slower (p95 2.0 ms against 1.5 ms).
    /// A CSV import keeps the default: it already holds the whole parsed file in memory, and the
    /// cache took its peak RSS from 91 to 120 MB (the target is 100 MB).
    func bulkWrite<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA cache_size = -32768")
            defer { try? db.execute(sql: "PRAGMA cache_size = -2000") }
            var result: T?
            try db.inTransaction {
                result = try body(db)
                return .commit
            }
            return result!
        }
    }

    /// Runs a write transaction (tests, and modules that own their own tables).
    public func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        try requireUsable()
        return try await wrap { try await writer.write(body) }
    }
}
