/// How well the storage key is kept from someone who holds the station's disk, or the
/// switched-off box: what `kiosk status`, `kiosk storage show`, the console's fault line and the
/// installers say about it.
public enum StorageKeyProtection: String, Sendable, Equatable, CaseIterable {
    /// Sealed by systemd-creds to this box's TPM2 (and its host key): the disk alone opens nothing.
    case tpm2
    /// A key file on another medium than the data (a USB stick the station needs at start).
    case separateMedium = "separate_medium"
    /// Sealed by systemd-creds with the host key only (no TPM2): that key,
    /// `/var/lib/systemd/credential.secret`, is on the same disk.
    case hostKey = "host_key"
    /// A plain key file on the same disk as the data (the embedded default, or `storage_key_file`).
    case keyFileSameDisk = "key_file_same_disk"
    /// A credential systemd-creds sealed with no key at all (`--with-key=tpm2-absent`).
    case noKey = "no_key"
    /// The recovery key, typed in for this command.
    case recoveryKey = "recovery_key"

    /// Whether whoever holds the data's disk also holds what opens it.
    public var sameDiskAsData: Bool {
        switch self {
        case .hostKey, .keyFileSameDisk, .noKey: true
        case .tpm2, .separateMedium, .recoveryKey: false
        }
    }

    /// What protects the data, in the organizer's words.
    public var words: String {
        switch self {
        case .tpm2: "sealed to this box's TPM2: the disk alone does not open the guest data"
        case .separateMedium: "on a separate medium, needed at every start: the disk alone does not open the guest data"
        case .hostKey:
            "only a key on the same disk as the data (systemd's host key: this box has no TPM2): whoever takes the disk or the box can open the guest data"
        case .keyFileSameDisk: "a key file on the same disk as the data: whoever takes the disk or the box can open the guest data"
        case .noKey: "sealed with no key at all: whoever takes the disk or the box can open the guest data"
        case .recoveryKey: "the recovery key, typed in"
        }
    }

    /// The stronger choices, when the key is on the data's disk.
    public var advice: String? {
        guard sameDiskAsData else { return nil }
        return "Stronger: keep the key on a USB stick that must be plugged in at start "
            + "(sudo kiosk storage move-key --to-removable /media/kiosk-key), or use a box with a TPM2; "
            + "README: Guest data at rest."
    }
}

extension StorageKeyProtection {
    /// The `storage_key` object of `kiosk status --json`.
    public func json(location: String) -> JSONValue {
        ["protection": .string(rawValue), "same_disk": .bool(sameDiskAsData), "location": .string(location),
         "message": .string(words), "fix": .optional(advice)]
    }
}
