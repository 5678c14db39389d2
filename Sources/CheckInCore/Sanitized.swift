/// Removal of what must never reach a terminal or a log line from outside data.
public enum Sanitized {
    /// Drops C0/C1 control characters (ESC included, so no escape sequence survives) and bidi
    /// override/isolate controls; keeps ordinary text in every script.
    public static func text(_ raw: String) -> String {
        String(String.UnicodeScalarView(raw.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F: false
            case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: false
            default: true
            }
        }))
    }
}
