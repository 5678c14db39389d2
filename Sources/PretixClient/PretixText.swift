/// A text pretix may send in several languages (`{"en": "VIP", "de": "VIP"}`) or as one string.
public struct PretixText: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Language code to text; one plain string is kept under "".
    public var translations: [String: String]

    public init(_ text: String) { translations = ["": text] }

    public init(translations: [String: String]) { self.translations = translations }

    /// The text in the first of `languages` that has one, else English, else any (stable order).
    public func text(preferring languages: [String] = []) -> String {
        for language in languages + ["", "en"] {
            if let text = translations[language], !text.isEmpty { return text }
        }
        return translations.keys.sorted().lazy.compactMap { self.translations[$0] }.first { !$0.isEmpty } ?? ""
    }

    public var description: String { text() }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let plain = try? container.decode(String.self) {
            translations = ["": plain]
        } else {
            // Languages without a text come as null.
            translations = try container.decode([String: String?].self).compactMapValues { $0 }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if translations.count == 1, let plain = translations[""] {
            try container.encode(plain)
        } else {
            try container.encode(translations)
        }
    }
}
