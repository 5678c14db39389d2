/// The random name of one scan, kept with it for its whole life (online redeem, offline
/// fallback, queued upload, annul): pretix records a scan once however often it is sent with the
/// same nonce, and annuls it by that nonce.
///
/// 130 random bits in base 32, 26 characters, like pretixSCAN's.
public struct PretixNonce: Sendable, Hashable, Codable, CustomStringConvertible {
    public let value: String

    static let alphabet = Array("0123456789abcdefghijklmnopqrstuv")
    /// What pretix accepts as a nonce (its field holds 190 characters); the station's are 26.
    static let maximumLength = 190

    /// A fresh nonce from the system's random generator.
    public static func random() -> PretixNonce {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    public static func random<Generator: RandomNumberGenerator>(using generator: inout Generator) -> PretixNonce {
        PretixNonce(checked: String((0..<26).map { _ in alphabet[Int(generator.next(upperBound: UInt8(32)))] }))
    }

    /// A stored nonce; `nil` when it is empty, too long or holds anything but letters, digits, `-` and `_`.
    public init?(_ value: String) {
        guard !value.isEmpty, value.utf8.count <= Self.maximumLength,
              value.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") })
        else { return nil }
        self.value = value
    }

    private init(checked value: String) { self.value = value }

    public var description: String { value }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let nonce = PretixNonce(try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a nonce")
        }
        self = nonce
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
