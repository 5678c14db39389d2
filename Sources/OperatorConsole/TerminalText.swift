import CheckInCore

/// Text as a terminal shows it: sanitized, measured in columns with `wcwidth` semantics
/// (East Asian wide characters take two columns, combining marks none), and fitted to a width.
///
/// Every string from a roster, the hub or a QR payload goes through ``TerminalText/fit(_:width:)``
/// (or ``TerminalText/clean(_:)``) before it reaches the screen.
public enum TerminalText {
    /// Removes control characters and bidi controls (``Sanitized/text(_:)``), and turns tabs and
    /// line breaks into spaces first so words do not run together.
    public static func clean(_ raw: String) -> String {
        Sanitized.text(String(String.UnicodeScalarView(raw.unicodeScalars.map { scalar in
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: " "
            default: scalar
            }
        })))
    }

    /// Columns a scalar occupies: 0 for combining marks and zero-width characters, 2 for
    /// East Asian wide and fullwidth characters (and emoji), 1 otherwise.
    public static func columns(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value == 0 { return 0 }
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value == 0x200B || (0x1160...0x11FF).contains(value) { return 0 }
        if isWide(value) { return 2 }
        return 1
    }

    /// Columns a string occupies.
    public static func width(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + columns(of: $1) }
    }

    /// The cleaned text cut to at most `width` columns, ending in "…" when it was cut.
    /// A wide character that would straddle the limit is left out whole.
    public static func fit(_ raw: String, width limit: Int) -> String {
        let text = clean(raw)
        guard limit > 0 else { return "" }
        if width(text) <= limit { return text }
        var result = ""
        var used = 0
        // Whole grapheme clusters only, so a base letter never loses its accent.
        for character in text {
            let w = width(String(character))
            if used + w > limit - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…"
    }

    /// The text fitted to `width` and padded with spaces to exactly `width` columns.
    public static func pad(_ raw: String, width limit: Int) -> String {
        let fitted = fit(raw, width: limit)
        return fitted + String(repeating: " ", count: max(0, limit - width(fitted)))
    }

    /// The text fitted and centred in `width` columns.
    public static func center(_ raw: String, width limit: Int) -> String {
        let fitted = fit(raw, width: limit)
        let left = max(0, (limit - width(fitted)) / 2)
        return String(repeating: " ", count: left) + fitted
    }

    /// The ranges glibc's `wcwidth` reports as two columns (Unicode East Asian Width W and F).
    static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
             0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB,
             0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA,
             0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757,
             0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55,
             0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18AFF, 0x1B000...0x1B2FF,
             0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F64F,
             0x1F680...0x1F6FF, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
