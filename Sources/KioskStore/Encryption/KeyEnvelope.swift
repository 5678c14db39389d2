import CheckInCore
import Crypto
import Foundation
import GRDB

/// The store's data key, wrapped (AES-GCM) by each key that may open it: the storage key, and
/// the recovery key once one was printed. Kept in the database in plaintext tables beside a
/// random store id (which names the default key file); the data key itself is never stored.
///
/// | table | |
/// |---|---|
/// | `storage_store` | the store id |
/// | `storage_keys` | one row per wrapping key: its identifier, `storage` or `recovery`, the wrapped data key |
///
/// A rekey adds the new wrap before the new key replaces the old one and removes the old wrap
/// after: a process killed at any point leaves a store that the key in place opens.
enum KeyEnvelope {
    static let schema = """
        CREATE TABLE IF NOT EXISTS storage_store (
            id INTEGER PRIMARY KEY CHECK (id = 1), store_id TEXT NOT NULL, created_at INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS storage_keys (
            key_id TEXT PRIMARY KEY, kind TEXT NOT NULL, wrapped BLOB NOT NULL, created_at INTEGER NOT NULL);
        """

    /// The first schema version that holds guest data sealed (0008_encrypted_guest_data.sql):
    /// a store at or past it without a wrapped data key has lost its envelope, and a new data
    /// key would make every sealed value unreadable.
    static let encryptedSchemaVersion = 8

    struct Unlocked: Sendable {
        let store: String
        let dataKey: SymmetricKey
        let cipher: GuestCipher
    }

    /// Unwraps the data key with the key from `source`, or creates the envelope for a new store
    /// (or one written before encryption). Writes nothing when the key does not fit.
    static func unlock(_ writer: DatabasePool, source: StorageKeySource, dataDirectory: URL) throws -> Unlocked {
        let existing = try writer.read { db -> (store: String?, wraps: Int, version: Int) in
            guard try db.tableExists("storage_store") else {
                return (nil, 0, try version(db))
            }
            return (try String.fetchOne(db, sql: "SELECT store_id FROM storage_store WHERE id = 1"),
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM storage_keys") ?? 0, try version(db))
        }
        if let store = existing.store, existing.wraps > 0 {
            let key = try source.load(store: store, creating: false, dataDirectory: dataDirectory)
            let dataKey = try writer.read { db in try unwrap(db, key: key, store: store, source: source) }
            return Unlocked(store: store, dataKey: dataKey, cipher: GuestCipher(dataKey: dataKey, store: store))
        }
        guard existing.version < encryptedSchemaVersion else { throw StorageKeyError.damaged(what: "the store's key envelope") }
        // IMMEDIATE: the check and the creation below are one step for every process.
        return try writer.writeWithoutTransaction { db in
            var unlocked: Unlocked?
            try db.inTransaction(.immediate) {
                unlocked = try create(db, source: source, dataDirectory: dataDirectory)
                return .commit
            }
            return unlocked!
        }
    }

    private static func create(_ db: Database, source: StorageKeySource, dataDirectory: URL) throws -> Unlocked {
        try db.execute(sql: schema)
        var store = try String.fetchOne(db, sql: "SELECT store_id FROM storage_store WHERE id = 1")
        if store == nil {
            let id = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
            try db.execute(sql: "INSERT INTO storage_store (id, store_id, created_at) VALUES (1, ?, ?)",
                           arguments: [id, Timestamp.now().milliseconds])
            store = id
        }
        // Another process (the service starting while install-station.sh asks for the recovery
        // key) may have made the envelope since the first read: its data key, never a second one.
        if try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM storage_keys") ?? 0 > 0 {
            let key = try source.load(store: store!, creating: false, dataDirectory: dataDirectory)
            let dataKey = try unwrap(db, key: key, store: store!, source: source)
            return Unlocked(store: store!, dataKey: dataKey, cipher: GuestCipher(dataKey: dataKey, store: store!))
        }
        let key = try source.load(store: store!, creating: true, dataDirectory: dataDirectory)
        let dataKey = SymmetricKey(size: .bits256)
        try addWrap(db, dataKey: dataKey, key: key, kind: "storage", store: store!)
        return Unlocked(store: store!, dataKey: dataKey, cipher: GuestCipher(dataKey: dataKey, store: store!))
    }

    private static func version(_ db: Database) throws -> Int {
        guard try db.tableExists("schema_migrations") else { return 0 }
        return try Int.fetchOne(db, sql: "SELECT MAX(version) FROM schema_migrations") ?? 0
    }

    static func unwrap(_ db: Database, key: StorageKey, store: String, source: StorageKeySource) throws -> SymmetricKey {
        guard let wrapped = try Data.fetchOne(db, sql: "SELECT wrapped FROM storage_keys WHERE key_id = ?",
                                              arguments: [key.identifier(store: store)]) else {
            throw StorageKeyError.wrongKey(source: source.describe(store: store))
        }
        guard let box = try? AES.GCM.SealedBox(combined: wrapped),
              let bytes = try? AES.GCM.open(box, using: key.wrappingKey(store: store), authenticating: Data(store.utf8)) else {
            throw StorageKeyError.damaged(what: "the store's wrapped data key")
        }
        return SymmetricKey(data: bytes)
    }

    static func addWrap(_ db: Database, dataKey: SymmetricKey, key: StorageKey, kind: String, store: String) throws {
        let plain = dataKey.withUnsafeBytes { Data($0) }
        let sealed = try AES.GCM.seal(plain, using: key.wrappingKey(store: store), authenticating: Data(store.utf8)).combined!
        try db.execute(sql: "INSERT OR REPLACE INTO storage_keys (key_id, kind, wrapped, created_at) VALUES (?, ?, ?, ?)",
                       arguments: [key.identifier(store: store), kind, sealed, Timestamp.now().milliseconds])
    }
}
