import Foundation

/// Where a store whose storage key was moved to a removable medium (`kiosk storage move-key
/// --to-removable`) expects it: one line, the key file's path, in the data directory's
/// `storage-key-on-removable-medium`. Every command and `kiosk run` look there first, so nothing
/// else (kiosk.conf, the unit) needs to change, and support's `sudo kiosk status` finds it too.
///
/// The path is not secret; changing it only makes the station wait for a medium that never
/// comes. Nothing is ever deleted because of what it says.
enum RemovableKeyPlace {
    static let fileName = "storage-key-on-removable-medium"

    static func url(in dataDirectory: URL) -> URL { dataDirectory.appendingPathComponent(fileName) }

    /// The key file's path on the medium, or nil when the key is not on one.
    static func read(in dataDirectory: URL) -> URL? {
        guard let data = FileManager.default.contents(atPath: url(in: dataDirectory).path) else { return nil }
        let path = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard path.hasPrefix("/"), !path.contains("\n") else { return nil }
        return URL(fileURLWithPath: path)
    }

    /// Records `keyFile` as the store's key, written beside and renamed over, flushed.
    static func write(_ keyFile: URL, in dataDirectory: URL) throws(StorageKeyError) {
        let target = url(in: dataDirectory)
        let temporary = target.appendingPathExtension("new")
        unlink(temporary.path)
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .keyFileUnreadable(path: target.path, reason: String(cString: strerror(errno))) }
        let bytes = Array((keyFile.path + "\n").utf8)
        let written = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, rename(temporary.path, target.path) == 0 else {
            unlink(temporary.path)
            throw .keyFileUnreadable(path: target.path, reason: "it could not be written: \(String(cString: strerror(errno)))")
        }
        StorageKeySource.syncFolder(of: target)
    }

    /// The store's key is back on the box.
    static func remove(in dataDirectory: URL) {
        let target = url(in: dataDirectory)
        if unlink(target.path) == 0 { StorageKeySource.syncFolder(of: target) }
    }
}
