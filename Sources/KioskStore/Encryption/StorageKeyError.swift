/// Why the storage key could not be had or does not open the data. Each says what to do; none
/// of them changes anything on disk.
public enum StorageKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The systemd credential is there but could not be read or decrypted (a TPM or host key
    /// reset, a damaged file).
    case credentialUnreadable(path: String, reason: String)
    /// The sealed credential can only be opened by root (`systemd-creds decrypt`).
    case needsRoot(path: String)
    /// The key file of an existing store is missing.
    case keyFileMissing(path: String)
    case keyFileUnreadable(path: String, reason: String)
    /// A key file inside the data directory would lie beside the data it protects.
    case keyFileInsideDataDirectory(path: String)
    /// The key file can be read by other users.
    case keyFileOpenToOthers(path: String)
    /// The store's key is on a removable medium that is not there (not plugged in, not mounted).
    case removableKeyAbsent(path: String)
    /// A removable medium for the key that lies on the data's own disk, which would protect nothing.
    case removableOnDataDisk(path: String)
    /// No folder where the removable medium was to be mounted.
    case noMediumAt(path: String)
    /// The key is not one this store's data key is wrapped with.
    case wrongKey(source: String)
    /// The wrapped data key or a stored value failed authentication: damaged data.
    case damaged(what: String)

    public var description: String {
        switch self {
        case .credentialUnreadable(let path, let reason):
            "The station's storage key (systemd credential \(path)) could not be opened: \(reason). Nothing was changed. "
                + "If this box's TPM or system was reset, open the data with the recovery key: sudo kiosk storage recover."
        case .needsRoot(let path):
            "This station's storage key is the systemd credential \(path), which only root can open: run the command with sudo (sudo kiosk …)."
        case .keyFileMissing(let path):
            "The storage key file \(path) is missing, so the station's data cannot be opened. Nothing was changed. "
                + "Put the key file back, or set a new one with the recovery key: kiosk storage recover."
        case .keyFileUnreadable(let path, let reason):
            "The storage key file \(path) cannot be read (\(reason)). Nothing was changed. Check the file, or use kiosk storage recover."
        case .keyFileInsideDataDirectory(let path):
            "The storage key file \(path) is inside the data directory, beside the data it protects: keep it elsewhere (storage_key_file)."
        case .keyFileOpenToOthers(let path):
            "The storage key file \(path) can be read by other users: restrict it (chmod 600 \(path)), then start again."
        case .removableKeyAbsent(let path):
            "The station's storage key is on a removable medium, and \(path) is not there. Nothing was changed. "
                + "Plug in the USB stick holding it (the station starts by itself once it is there); "
                + "if it is lost, open the data with the recovery key: sudo kiosk storage recover."
        case .removableOnDataDisk(let path):
            "\(path) is on the same disk as the station's data, so a key there protects nothing. Nothing was changed. "
                + "Plug in a USB stick, mount it (README: Guest data at rest) and name its folder."
        case .noMediumAt(let path):
            "There is no folder \(path): nothing is mounted there. Nothing was changed. "
                + "Plug in the USB stick and mount it there (README: Guest data at rest)."
        case .wrongKey(let source):
            "The storage key from \(source) does not open this station's data. Nothing was changed. "
                + "Use the station's own key, or the recovery key (kiosk storage recover)."
        case .damaged(let what):
            "Stored \(what) cannot be decrypted: the data is damaged. Nothing was changed. Stop the station and contact support; "
                + "backups are in the data directory's backups/ folder."
        }
    }
}
