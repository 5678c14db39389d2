import Foundation

/// Which key systemd-creds sealed a credential with, read from the credential's own header (its
/// first 16 bytes, after base64, name the sealing: systemd's `src/shared/creds-util.h`), or
/// decided by whether this box has a TPM2 where the sealed file cannot be read (the service,
/// running as the station's user, gets only the decrypted credential).
enum CredentialSealing {
    /// Sealed with the host key only (`CRED_AES256_GCM_BY_HOST`, and its `_SCOPED` variant).
    static let hostOnly: Set<String> = ["5a1c6a86df9d4096b1d5a65e0862f19a", "55b9ed1d38594d43a8319d2ebb332ac6"]
    /// Sealed with no key (`CRED_AES256_GCM_BY_NULL`, `--with-key=tpm2-absent`).
    static let noKey = "058469daf6f54324800549da0f8ea2fb"
    /// Every other sealing systemd knows involves the TPM2 (alone, or with the host key).
    static let withTPM2: Set<String> = [
        "0c7cc07b117645919c4b0bea08bc20fe", "faf7eb9341e3412ca1a436f95a29362f", "93a894094874449090caf2fc93cab553",
        "ef4ac13679a9480ea7db68897f9f165d", "af4950a849134eb1a73846304ff30c05", "adbc4ca3efb64201ba881b6f2e4095ea",
    ]

    /// The protection of a sealed credential file's contents, or nil when it is not one.
    static func protection(ofSealed contents: Data) -> StorageKeyProtection? {
        let text = String(decoding: contents.prefix(64), as: UTF8.self).filter { !$0.isWhitespace }
        // 24 base64 characters hold the 16 bytes of the id (and two of what follows).
        guard text.count >= 24, let head = Data(base64Encoded: String(text.prefix(24))) else { return nil }
        let id = head.prefix(16).map { String(format: "%02x", $0) }.joined()
        if hostOnly.contains(id) { return .hostKey }
        if id == noKey { return .noKey }
        if withTPM2.contains(id) { return .tpm2 }
        return nil
    }

    /// The protection of the credential at `url`: from its header when this process can read
    /// it (root), else what `systemd-creds --with-key=auto` (and `kiosk storage seal`) chooses on
    /// this box: the TPM2 when `systemd-creds has-tpm2` finds one, the host key otherwise.
    static func protection(ofCredentialAt url: URL) -> StorageKeyProtection {
        if let contents = FileManager.default.contents(atPath: url.path), let known = protection(ofSealed: contents) { return known }
        return SystemdCredential.hasTPM2() ? .tpm2 : .hostKey
    }
}
