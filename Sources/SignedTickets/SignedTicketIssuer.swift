import CheckInCore
import Crypto
import Foundation

/// Issues tickets in pretix's signed format with a key of its own: what a benchmark (and a hub
/// that issues its own signed tickets) uses to make codes ``SignedTicketFormat`` verifies.
public struct SignedTicketIssuer: Sendable {
    let key: Curve25519.Signing.PrivateKey

    public init(key: Curve25519.Signing.PrivateKey = Curve25519.Signing.PrivateKey()) {
        self.key = key
    }

    /// The public key, as an event lists it for the devices (`valid_keys.pretix_sig1`: base64 of a PEM).
    public var listedKey: String {
        let der = TicketSigningKey.ed25519Prefix + key.publicKey.rawRepresentation
        let pem = "-----BEGIN PUBLIC KEY-----\n\(der.base64EncodedString())\n-----END PUBLIC KEY-----\n"
        return Data(pem.utf8).base64EncodedString()
    }

    /// The ticket's code: its payload signed, in the signed format.
    public func code(for ticket: SignedTicket) throws -> String {
        var payload = Data()
        func varint(_ value: UInt64) {
            var rest = value
            repeat {
                payload.append(UInt8(rest & 0x7F) | (rest > 0x7F ? 0x80 : 0))
                rest >>= 7
            } while rest > 0
        }
        func field(_ number: UInt8, _ value: UInt64) {
            payload.append(number << 3)
            varint(value)
        }
        let seed = Data(ticket.seed.utf8)
        payload.append(0x0A)
        varint(UInt64(seed.count))
        payload.append(seed)
        field(2, UInt64(bitPattern: ticket.item))
        if ticket.variation != 0 { field(3, UInt64(bitPattern: ticket.variation)) }
        if ticket.subevent != 0 { field(4, UInt64(bitPattern: ticket.subevent)) }
        if let from = ticket.validFrom { field(5, UInt64(bitPattern: from.milliseconds / 1000)) }
        if let until = ticket.validUntil { field(6, UInt64(bitPattern: until.milliseconds / 1000)) }
        let signature = try key.signature(for: payload)
        let raw = Data([0x01, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF), 0x00, UInt8(signature.count)]) + payload + signature
        return String(raw.base64EncodedString().reversed())
    }
}
