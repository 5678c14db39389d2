import Foundation

/// Seals a whole backup file, and opens one again (`kiosk storage open-backup`).
enum BackupSealer {
    static let suffix = "sealed"

    /// Writes `file.sealed` (0600, flushed), then removes `file`.
    static func seal(_ file: URL, cipher: GuestCipher) throws {
        let plain = try Data(contentsOf: file)
        let sealed = cipher.seal(bytes: plain, with: cipher.backupKey)
        let target = file.appendingPathExtension(suffix)
        try write(sealed, to: target)
        try FileManager.default.removeItem(at: file)
    }

    /// The plaintext SQLite file of a sealed backup of this store, written to `target`.
    static func open(_ file: URL, to target: URL, cipher: GuestCipher) throws {
        let plain = try cipher.open(bytes: try Data(contentsOf: file), with: cipher.backupKey, what: "backup \(file.lastPathComponent)")
        try write(plain, to: target)
    }

    private static func write(_ data: Data, to target: URL) throws {
        let fd = Foundation.open(target.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: target.path]) }
        defer { close(fd) }
        let written = data.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
        guard written == data.count, fsync(fd) == 0 else { throw CocoaError(.fileWriteOutOfSpace, userInfo: [NSFilePathErrorKey: target.path]) }
    }
}
