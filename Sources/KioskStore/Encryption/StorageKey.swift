import Crypto
import Foundation

/// The key that wraps a store's data key (the key-encryption key). It never lies beside the
/// data: a systemd credential, a key file outside the data directory, or a recovery key on paper.
///
/// On disk it is one line of base64 (32 random bytes); a recovery key is printed as 64 hex
/// digits in groups of four, which is easier to type back from paper.
public struct StorageKey: Sendable {
    let key: SymmetricKey

    init(_ key: SymmetricKey) { self.key = key }

    /// A new random key.
    public static func random() -> StorageKey { StorageKey(SymmetricKey(size: .bits256)) }

    /// Reads a key file's or credential's contents: base64 of 32 bytes (whitespace ignored), or
    /// the 32 raw bytes.
    public init?(fileContents data: Data) {
        let text = String(decoding: data, as: UTF8.self).filter { !$0.isWhitespace }
        if let decoded = Data(base64Encoded: text), decoded.count == 32 {
            key = SymmetricKey(data: decoded)
        } else if data.count == 32 {
            key = SymmetricKey(data: data)
        } else {
            return nil
        }
    }

    /// Reads a recovery key as printed by ``recoveryText`` (dashes, spaces and case ignored).
    public init?(recoveryText: String) {
        let hex = recoveryText.lowercased().filter { $0.isHexDigit }
        guard hex.count == 64, recoveryText.allSatisfy({ $0.isHexDigit || $0 == "-" || $0.isWhitespace }) else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        key = SymmetricKey(data: bytes)
    }

    /// What a key file holds.
    public var fileContents: Data { Data((bytes.base64EncodedString() + "\n").utf8) }

    /// The key as printed for paper: 16 groups of 4 hex digits.
    public var recoveryText: String {
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        return stride(from: 0, to: hex.count, by: 4).map { offset -> String in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return String(hex[start..<hex.index(start, offsetBy: 4)])
        }.joined(separator: "-")
    }

    var bytes: Data { key.withUnsafeBytes { Data($0) } }

    /// Names this key for `store` without revealing it: which wrap of the data key it opens.
    func identifier(store: String) -> String {
        let derived = HKDF<SHA256>.deriveKey(inputKeyMaterial: key, salt: Data(store.utf8),
                                             info: Data("checkin-kiosk key id v1".utf8), outputByteCount: 8)
        return derived.withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }
    }

    /// The AEAD key that wraps the data key of `store`.
    func wrappingKey(store: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: key, salt: Data(store.utf8),
                               info: Data("checkin-kiosk wrap v1".utf8), outputByteCount: 32)
    }
}
