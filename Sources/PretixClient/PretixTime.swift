import CheckInCore

/// A time as pretix writes it (ISO 8601, with or without fractions, `Z` or an offset), kept with
/// its exact text: the order download's cursors send pretix's own texts back, so a delta never
/// starts a hair after what pretix meant.
public struct PretixTime: Sendable, Hashable, Codable, CustomStringConvertible {
    /// pretix's text.
    public var text: String
    public var timestamp: Timestamp

    /// The longest time text accepted (`2026-11-28T01:13:23.873956+01:00` is 32 characters).
    static let maximumLength = 64

    /// Reads pretix's text; `nil` when it is not an ISO 8601 time.
    public init?(_ text: String) {
        guard text.utf8.count <= Self.maximumLength,
              text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || "-:.+TZ".unicodeScalars.contains($0) }),
              let timestamp = Timestamp(iso8601: text) else { return nil }
        self.text = text
        self.timestamp = timestamp
    }

    /// A station time for pretix (UTC, milliseconds).
    public init(_ timestamp: Timestamp) {
        text = timestamp.iso8601
        self.timestamp = timestamp
    }

    public var description: String { text }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let time = PretixTime(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 time: \(text.prefix(40))")
        }
        self = time
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
