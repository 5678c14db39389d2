import Foundation

/// Folding of names for search: case- and accent-insensitive, so "jose muller" finds
/// "José Müller" and "odegard" finds "Ødegård".
public enum SearchText {
    /// Letters that Unicode does not decompose into a base letter plus an accent.
    private static let extraFolds: [Character: String] = [
        "ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i",
    ]

    /// Lower-cases, removes diacritics, and maps the letters above; other scripts pass unchanged.
    public static func fold(_ text: String) -> String {
        let basic = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var result = ""
        result.reserveCapacity(basic.utf8.count)
        for character in basic {
            if let mapped = extraFolds[character] { result += mapped } else { result.append(character) }
        }
        return result
    }
}
