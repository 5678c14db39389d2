import Foundation

/// A ticket code after normalization: what scanners, cameras and people send, reduced to the
/// code the roster stores.
///
/// Real input arrives with scanner suffixes (`CR`, `LF`, `TAB`), stray NUL bytes, surrounding
/// spaces, wrapped in a URL (`https://tickets.example.com/t/ABC123`), or typed in the wrong case.
/// ```swift
/// TicketCode(normalizing: " abc123\r\n")?.value              // "ABC123"
/// TicketCode(normalizing: "https://x.example/t/abc123")?.value // "ABC123"
/// TicketCode(normalizing: "\u{1b}[2J")                        // nil: not a code
/// ```
public struct TicketCode: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The normalized code, as stored in the roster.
    public let value: String

    /// The longest code accepted; anything longer is noise or an attack, not a ticket.
    public static let maximumLength = 256

    /// Normalizes raw input into a code, or returns `nil` when nothing code-like is left.
    /// - Parameters:
    ///   - raw: what the scanner, camera or keyboard delivered.
    ///   - caseInsensitive: when `true` (the default), codes are compared in upper case.
    public init?(normalizing raw: String, caseInsensitive: Bool = true) {
        var text = raw.contains("\u{0}") ? String(String.UnicodeScalarView(raw.unicodeScalars.filter { $0 != "\u{0}" })) : raw
        text = text.trimmedWhitespace()
        if text.hasPrefix("http"), let unwrapped = Self.unwrapURL(text) { text = unwrapped.trimmedWhitespace() }
        guard !text.isEmpty, text.unicodeScalars.count <= Self.maximumLength else { return nil }
        // A code never contains control characters or inner whitespace; such input is garbage.
        guard !text.unicodeScalars.contains(where: { $0.isControl || $0.properties.isWhitespace }) else { return nil }
        self.value = caseInsensitive ? text.uppercased() : text
    }

    /// Wraps an already-normalized value (from the store), without re-normalizing.
    public init(stored value: String) { self.value = value }

    public var description: String { value }

    /// `https://host/…/t/CODE`, `…?code=CODE` / `?ticket=CODE` / `?secret=CODE`, or the last path segment.
    static func unwrapURL(_ text: String) -> String? {
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"),
              let components = URLComponents(string: text)
        else { return nil }
        for name in ["code", "ticket", "secret", "t"] {
            if let value = components.queryItems?.first(where: { $0.name.lowercased() == name })?.value, !value.isEmpty {
                return value
            }
        }
        let segments = components.path.split(separator: "/").map(String.init)
        if let index = segments.lastIndex(where: { ["t", "ticket", "tickets", "c", "checkin"].contains($0.lowercased()) }),
           index + 1 < segments.count {
            return segments[index + 1].removingPercentEncoding ?? segments[index + 1]
        }
        return segments.last.map { $0.removingPercentEncoding ?? $0 }
    }
}
