import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small secret kept beside the store, not in it (the hub session, the pretix connection):
/// sealed with the store's key, so only the storage key opens it, like the guest data; mode 0600
/// from its first byte; written atomically (a temporary file created with that mode, fsynced,
/// then renamed over the old one), so a crash leaves either the old or the new contents.
public struct SealedFile: Sendable {
    public let url: URL
    let sealer: any SecretSealer

    public init(_ url: URL, sealer: any SecretSealer) {
        self.url = url
        self.sealer = sealer
    }

    /// Whether the file is there, readable or not.
    public var exists: Bool { FileManager.default.fileExists(atPath: url.path) }

    /// The bytes as they are on disk, or `nil` when there is no file.
    public func bytes() throws(SealedFileError) -> Data? {
        guard exists else { return nil }
        do { return try Data(contentsOf: url) } catch { throw .unreadable(error.localizedDescription) }
    }

    /// The bytes as stored, opened with the store's key.
    public func open(_ sealed: Data) throws(SealedFileError) -> Data {
        do { return try sealer.openSecret(sealed) } catch {
            throw .unreadable("this station's key does not open it: the file is damaged or was not written by this station")
        }
    }

    /// The opened contents, or `nil` when there is no file.
    public func read() throws(SealedFileError) -> Data? {
        try bytes().map { sealed throws(SealedFileError) in try open(sealed) }
    }

    /// Seals `contents` and writes them in place of the old ones.
    public func write(_ contents: Data) throws(SealedFileError) {
        let data = sealer.sealSecret(contents)
        let temporary = url.path + ".tmp"
        unlink(temporary)
        let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .unwritable(path: temporary, reason: String(cString: strerror(errno))) }
        // umask can only remove bits; fchmod makes the mode exact whatever umask was.
        fchmod(fd, 0o600)
        let written = data.withUnsafeBytes { buffer in Glibc.write(fd, buffer.baseAddress, buffer.count) }
        let synced = fsync(fd)
        close(fd)
        guard written == data.count, synced == 0 else {
            unlink(temporary)
            throw .unwritable(path: temporary, reason: "short write")
        }
        guard rename(temporary, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .unwritable(path: url.path, reason: reason)
        }
    }

    /// Removes the file: the secret is gone from the disk.
    public func remove() {
        unlink(url.path)
    }
}

/// Why a ``SealedFile`` could not be read or written, in words its owner puts in its own error.
public enum SealedFileError: Error, Sendable, Equatable {
    case unreadable(String)
    case unwritable(path: String, reason: String)

    /// The reason alone.
    public var reason: String {
        switch self {
        case .unreadable(let reason), .unwritable(_, let reason): reason
        }
    }
}
