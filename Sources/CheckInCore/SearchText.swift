import Foundation

/// Folding of names for search: case- and accent-insensitive, so "jose muller" finds
/// "José Müller" and "odegard" finds "Ødegård".
///
/// Runs for every guest of an import, so it is table-driven: ASCII is lower-cased directly,
/// the Latin, Greek and Cyrillic blocks (and full-width forms) are folded through a table built
/// once with Foundation's diacritic- and case-insensitive folding, other scripts pass unchanged.
public enum SearchText {
    /// Letters that Unicode does not decompose into a base letter plus an accent.
    private static let extraFolds: [Character: String] = [
        "ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i",
    ]

    private static let tableRanges: [ClosedRange<UInt32>] = [0x80...0x52F, 0x1E00...0x1FFF, 0xFF00...0xFF5E]

    /// Folded form of every scalar in `tableRanges` that changes when folded.
    private static let table: [UInt32: String] = {
        var table: [UInt32: String] = [:]
        for range in tableRanges {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let folded = slowFold(String(Character(scalar)))
                if folded != String(Character(scalar)) { table[value] = folded }
            }
        }
        return table
    }()

    /// Lower-cases, removes diacritics, and maps the letters above; other scripts pass unchanged.
    ///
    /// Builds UTF-8 bytes rather than appending scalars to a `String` (which re-checks the
    /// string's capacity and ASCII flag at every append: half of the cost, measured with perf
    /// during a 100k-guest download).
    public static func fold(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                bytes.append(UInt8(value >= 0x41 && value <= 0x5A ? value + 0x20 : value))
            } else if let folded = table[value] {
                bytes.append(contentsOf: folded.utf8)
            } else if (0x300...0x36F).contains(value) {
                continue // a combining accent after its base letter
            } else {
                bytes.append(contentsOf: UTF8.encode(scalar)!)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Foundation's folding plus the letters it leaves alone; the reference for ``fold(_:)``.
    static func slowFold(_ text: String) -> String {
        let basic = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var result = ""
        for character in basic {
            if let mapped = extraFolds[character] { result += mapped } else { result.append(character) }
        }
        return result
    }
}
