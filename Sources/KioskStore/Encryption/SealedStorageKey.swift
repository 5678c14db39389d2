import Foundation

/// The systemd credential a station installed as a service keeps its storage key in, as the
/// installers make it (`kiosk storage seal`, run by the package's postinst and
/// `install-station.sh`): sealed to the TPM2 when the box has one, else to systemd's host key.
public enum SealedStorageKey {
    /// How the credential at `url` is sealed, or nil when there is none.
    public static func protection(at url: URL) -> StorageKeyProtection? {
        FileManager.default.fileExists(atPath: url.path) ? CredentialSealing.protection(ofCredentialAt: url) : nil
    }

    /// Seals a new random storage key at `url` (root only: systemd-creds needs the host key and
    /// the TPM): written beside, 0600, renamed over, in a 0700 folder. Never over an existing
    /// one, which may be the only key that opens a station's data.
    /// - Returns: how the new key is protected.
    public static func sealNew(at url: URL) throws(StorageKeyError) -> StorageKeyProtection {
        guard geteuid() == 0 else { throw .needsRoot(path: url.path) }
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw .credentialUnreadable(path: url.path, reason: "a storage key is already sealed there, and a new one would not open the data it opens")
        }
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .credentialUnreadable(path: url.path, reason: "its folder cannot be made: \((error as NSError).localizedDescription)")
        }
        let temporary = url.appendingPathExtension("new")
        unlink(temporary.path)
        let protection = try SystemdCredential.encrypt(StorageKey.random(), to: temporary)
        guard rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw .credentialUnreadable(path: url.path, reason: "the sealed key could not be put in place: \(String(cString: strerror(errno)))")
        }
        StorageKeySource.syncFolder(of: url)
        return protection
    }
}
