import Foundation

/// Seals small files the station keeps beside its database (the hub session) with a key derived
/// from the store's data key: readable only with the storage key, like the guest data.
public protocol SecretSealer: Sendable {
    func sealSecret(_ plaintext: Data) -> Data
    func openSecret(_ sealed: Data) throws(StorageKeyError) -> Data
}

extension KioskDatabase: SecretSealer {
    public func sealSecret(_ plaintext: Data) -> Data {
        keys.cipher.seal(bytes: plaintext, with: keys.cipher.secretKey)
    }

    public func openSecret(_ sealed: Data) throws(StorageKeyError) -> Data {
        try keys.cipher.open(bytes: sealed, with: keys.cipher.secretKey, what: "the hub session")
    }
}
