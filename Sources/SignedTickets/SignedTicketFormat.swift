import CheckInCore
import Foundation

/// pretix's signed ticket secrets (`pretix_sig1`), read and verified offline.
///
/// The code is base64 written backwards (so that codes share no prefix) of: a version byte (1),
/// the payload's and the signature's lengths (big-endian 16-bit), the payload (a protobuf
/// `Ticket`: seed 1, item 2, variation 3, subevent 4, validFromUnixTime 5, validUntilUnixTime 6)
/// and its Ed25519 signature. A pure function of the code and the keys.
public enum SignedTicketFormat {
    /// Checks `code` against every key the event lists (several after a key change).
    public static func check(_ code: String, keys: [TicketSigningKey]) -> SignedTicketCheck {
        guard let (payload, signature) = envelope(code) else { return .notSigned }
        guard keys.contains(where: { $0.verifies(signature, of: payload) }) else { return .forged }
        // A payload a key signed but this release cannot read is refused, never admitted.
        guard let ticket = ticket(payload) else { return .forged }
        return .valid(ticket)
    }

    /// Whether `code` is in the signed format at all (no key checked): an ordinary code is
    /// told apart without a signature check.
    public static func isSigned(_ code: String) -> Bool { envelope(code) != nil }

    /// The payload and signature of a code in the signed format, `nil` for any other code.
    static func envelope(_ code: String) -> (payload: Data, signature: Data)? {
        // Signed codes are short (about 110 characters); anything long is no signed ticket.
        guard code.utf8.count <= 512, code.utf8.count >= 8 else { return nil }
        var base64 = String(code.reversed())
        while base64.utf8.count % 4 != 0 { base64 += "=" }
        guard let raw = Data(base64Encoded: base64), raw.count > 5, raw[raw.startIndex] == 0x01 else { return nil }
        let bytes = [UInt8](raw)
        let payloadLength = Int(bytes[1]) << 8 | Int(bytes[2])
        let signatureLength = Int(bytes[3]) << 8 | Int(bytes[4])
        guard signatureLength == 64, bytes.count == 5 + payloadLength + signatureLength else { return nil }
        return (Data(bytes[5 ..< 5 + payloadLength]), Data(bytes[(5 + payloadLength)...]))
    }

    /// The protobuf `Ticket` message; `nil` when it is not one (unknown fields are skipped).
    static func ticket(_ payload: Data) -> SignedTicket? {
        var reader = ProtobufReader(bytes: [UInt8](payload))
        var ticket = SignedTicket(seed: "", item: 0)
        var seen = false
        while !reader.atEnd {
            guard let (field, value) = reader.next() else { return nil }
            switch (field, value) {
            case (1, .bytes(let bytes)):
                guard let seed = String(bytes: bytes, encoding: .utf8) else { return nil }
                ticket.seed = seed
                seen = true
            case (2, .varint(let number)): ticket.item = Int64(bitPattern: number)
            case (3, .varint(let number)): ticket.variation = Int64(bitPattern: number)
            case (4, .varint(let number)): ticket.subevent = Int64(bitPattern: number)
            case (5, .varint(let number)): ticket.validFrom = unixTime(number)
            case (6, .varint(let number)): ticket.validUntil = unixTime(number)
            case (1...6, _): return nil  // a known field of the wrong type
            default: continue
            }
        }
        return seen && ticket.item > 0 ? ticket : nil
    }

    /// Seconds since the epoch as an instant; 0 (or a time no clock reaches) means none.
    static func unixTime(_ value: UInt64) -> Timestamp? {
        let seconds = Int64(bitPattern: value)
        guard seconds > 0 else { return nil }
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? nil : Timestamp(milliseconds: milliseconds)
    }
}
