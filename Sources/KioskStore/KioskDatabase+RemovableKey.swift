import Foundation

/// The storage key on a removable medium (a USB stick): the data then opens only while the
/// stick is plugged in, so a stolen disk or box without it opens nothing. Both moves are rekeys
/// (``KioskDatabase/rekey(to:stepDelay:beforeOldKeysGo:)``): killed at any point, the store
/// opens with whichever key is in place, and the recovery key keeps working throughout.
extension KioskDatabase {
    /// The key file's name on the medium: one per store, so one stick can serve several stations.
    public func removableKeyFile(in folder: URL) -> URL { folder.appendingPathComponent("checkin-kiosk-\(storeID).key") }

    /// Puts a new storage key on the medium mounted at `folder`, records that place in the data
    /// directory, and removes the old key from this box (it opens nothing any more).
    /// - Returns: the key file on the medium, and the old key removed from the box, if any.
    public func moveKeyToRemovable(_ folder: URL) throws(StoreError) -> (keyFile: URL, removed: String?) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw .storageKey(.noMediumAt(path: folder.path))
        }
        guard !DiskIdentity.sameDisk(folder.path, dataDirectory.path) else { throw .storageKey(.removableOnDataDisk(path: folder.path)) }
        let keyFile = removableKeyFile(in: folder)
        let old = keySource
        let directory = dataDirectory
        try rekey(to: .removable(keyFile)) { () throws(StorageKeyError) in try RemovableKeyPlace.write(keyFile, in: directory) }
        return (keyFile, Self.removeOldKey(old, store: storeID))
    }

    /// Puts a new storage key back in this box's own place (`target`: the sealed credential, or
    /// the key file) and forgets the medium. The key file left on the medium opens nothing.
    /// - Returns: where the new key is, or nil when the key was not on a removable medium.
    public func moveKeyToBox(_ target: StorageKeySource) throws(StoreError) -> String? {
        guard case .removable = keySource else { return nil }
        let directory = dataDirectory
        return try rekey(to: target) { () throws(StorageKeyError) in RemovableKeyPlace.remove(in: directory) }
    }

    /// Deletes a key that no longer opens the store from where this box keeps it (a key file, or
    /// root's sealed credential). Never a file on a medium: its path comes from the data
    /// directory, which root must not take orders from.
    private static func removeOldKey(_ source: StorageKeySource, store: String) -> String? {
        switch source {
        case .keyFile, .userDefault:
            guard let url = source.keyFileURL(store: store), unlink(url.path) == 0 else { return nil }
            StorageKeySource.syncFolder(of: url)
            return url.path
        case .sealedCredential(let url), .unsealedCredential(_, let url):
            let removed = try? DataDirectory.asRoot { () throws(StorageKeyError) -> Bool in unlink(url.path) == 0 }
            guard removed == true else { return nil }
            StorageKeySource.syncFolder(of: url)
            return url.path
        case .credential, .removable, .given:
            return nil
        }
    }
}
