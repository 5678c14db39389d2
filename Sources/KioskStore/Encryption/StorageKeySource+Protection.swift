import Foundation

extension StorageKeySource {
    /// How well this source's key is kept from whoever holds the disk of `dataDirectory`: a
    /// sealed credential by the key that sealed it, a key file by the disk it is on.
    public func protection(store: String, dataDirectory: URL) -> StorageKeyProtection {
        switch self {
        case .credential: CredentialSealing.protection(ofCredentialAt: Self.sealedCredentialURL())
        case .sealedCredential(let url), .unsealedCredential(_, let url): CredentialSealing.protection(ofCredentialAt: url)
        case .keyFile, .userDefault, .removable:
            DiskIdentity.sameDisk(keyFileURL(store: store)!.path, dataDirectory.path) ? .keyFileSameDisk : .separateMedium
        case .given: .recoveryKey
        }
    }
}
