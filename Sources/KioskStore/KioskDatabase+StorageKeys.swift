import CheckInCore
import Foundation
import GRDB
import Logging

/// What `kiosk storage` shows: where the key is, never the key.
public struct StorageKeyInfo: Sendable, Equatable {
    public var storeID: String
    public var keyLocation: String
    /// Keys that open the data: the storage key (two only while a rekey is under way).
    public var storageKeys: Int
    public var hasRecoveryKey: Bool
    public var protection: StorageKeyProtection
}

extension KioskDatabase {
    /// How well the key this store was opened with is kept from whoever holds its disk.
    public var keyProtection: StorageKeyProtection { keySource.protection(store: storeID, dataDirectory: dataDirectory) }

    public func storageKeyInfo() throws(StoreError) -> StorageKeyInfo {
        let protection = keyProtection
        return try wrap {
            try writer.read { db in
                StorageKeyInfo(
                    storeID: storeID, keyLocation: keySource.describe(store: storeID),
                    storageKeys: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM storage_keys WHERE kind = 'storage'") ?? 0,
                    hasRecoveryKey: try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM storage_keys WHERE kind = 'recovery')") ?? false,
                    protection: protection)
            }
        }
    }

    /// Wraps the data key with a new random storage key and puts that key where `target` (by
    /// default the key's own place) reads it. The data is not re-encrypted: the data key stays.
    ///
    /// In three steps, each durable before the next: the new wrap is added; the new key replaces
    /// the old one in place (an atomic rename); the old wraps are removed. Killed at any point,
    /// the store opens with whichever key is in place. `stepDelay` spaces the steps (tests kill
    /// the process in between); `beforeOldKeysGo` runs once the new key is in place and the old
    /// one still opens the data (a move records the key's new place there).
    /// - Returns: where the new key is.
    @discardableResult
    public func rekey(to target: StorageKeySource? = nil, stepDelay: Duration = .zero,
                      beforeOldKeysGo: () throws(StorageKeyError) -> Void = {}) throws(StoreError) -> String {
        let target = target ?? keySource
        guard target.canHoldNewKey else {
            throw .storageKey(.credentialUnreadable(path: target.describe(store: storeID),
                                                    reason: "a new key cannot be put there; run the command as root outside the service (sudo kiosk storage …)"))
        }
        let newKey = StorageKey.random()
        let store = storeID, dataKey = keys.dataKey
        try wrap {
            try writer.write { db in try KeyEnvelope.addWrap(db, dataKey: dataKey, key: newKey, kind: "storage", store: store) }
        }
        Self.pause(stepDelay)
        do {
            try target.persist(newKey, store: store)
            try beforeOldKeysGo()
        } catch { throw .storageKey(error) }
        Self.pause(stepDelay)
        try wrap {
            try writer.write { db in
                try db.execute(sql: "DELETE FROM storage_keys WHERE kind = 'storage' AND key_id != ?", arguments: [newKey.identifier(store: store)])
            }
        }
        logger.notice("storage key replaced", metadata: ["location": "\(target.describe(store: store))"])
        return target.describe(store: store)
    }

    /// A new recovery key, replacing any earlier one (which then opens nothing). Shown once:
    /// it is not stored, only the data key wrapped by it.
    public func makeRecoveryKey() throws(StoreError) -> StorageKey {
        let recovery = StorageKey.random()
        let store = storeID, dataKey = keys.dataKey
        try wrap {
            try writer.write { db in
                try db.execute(sql: "DELETE FROM storage_keys WHERE kind = 'recovery'")
                try KeyEnvelope.addWrap(db, dataKey: dataKey, key: recovery, kind: "recovery", store: store)
            }
        }
        logger.notice("new recovery key made; earlier ones no longer open the data")
        return recovery
    }

    /// Opens a store whose storage key is lost (a dead box's disk, a reset TPM) with its
    /// recovery key, and gives it a new storage key where `source` reads it.
    public static func recover(dataDirectory: URL, recoveryKey: StorageKey, into source: StorageKeySource,
                               migrations: [Migration] = Migration.embedded) throws(StoreError) -> (database: KioskDatabase, keyLocation: String) {
        guard FileManager.default.fileExists(atPath: databaseURL(in: dataDirectory).path) else {
            throw .notFound("Station data in \(dataDirectory.path)")
        }
        let database = try open(dataDirectory: dataDirectory, migrations: migrations, key: .given(recoveryKey, label: "the recovery key"))
        // A key that was on a removable medium (lost with it) is replaced by one on this box.
        let location = try database.rekey(to: source) { () throws(StorageKeyError) in RemovableKeyPlace.remove(in: dataDirectory) }
        return (database, location)
    }

    /// Writes the plaintext SQLite file of one of this store's sealed backups to `target`
    /// (0600), for support to restore or inspect.
    public func openBackup(_ file: URL, to target: URL) throws(StoreError) {
        do { try BackupSealer.open(file, to: target, cipher: keys.cipher) } catch let error as StorageKeyError {
            throw .storageKey(error)
        } catch {
            throw .dataDirectoryUnusable(path: target.path, reason: (error as NSError).localizedDescription)
        }
    }

    private static func pause(_ delay: Duration) {
        guard delay > .zero else { return }
        let (seconds, attoseconds) = delay.components
        Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
    }
}
