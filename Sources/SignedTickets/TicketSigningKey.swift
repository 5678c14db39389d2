import Crypto
import Foundation

/// A public key an event signs its tickets with (Ed25519).
public struct TicketSigningKey: Sendable {
    let key: Curve25519.Signing.PublicKey

    public init(_ key: Curve25519.Signing.PublicKey) {
        self.key = key
    }

    /// A key as pretix lists it in an event's `valid_keys.pretix_sig1`: base64 of a PEM
    /// `PUBLIC KEY` (an Ed25519 SubjectPublicKeyInfo). `nil` for anything else.
    public init?(pretixListed text: String) {
        guard let pemData = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)),
              let pem = String(data: pemData, encoding: .utf8) else { return nil }
        let body = pem.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("-----") }.joined()
        guard pem.contains("-----BEGIN PUBLIC KEY-----"), let der = Data(base64Encoded: body),
              der.count == Self.ed25519Prefix.count + 32, der.prefix(Self.ed25519Prefix.count) == Self.ed25519Prefix,
              let key = try? Curve25519.Signing.PublicKey(rawRepresentation: der.suffix(32)) else { return nil }
        self.key = key
    }

    /// DER of `SEQUENCE { SEQUENCE { OID 1.3.101.112 (Ed25519) } BIT STRING (32 bytes) }` up to the key.
    static let ed25519Prefix = Data([0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00])

    func verifies(_ signature: Data, of payload: Data) -> Bool {
        key.isValidSignature(signature, for: payload)
    }
}
