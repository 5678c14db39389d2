/// Checks what a code carries before anyone prints it: the console shows what it gets, so a
/// payload with escape sequences, invalid UTF-8 or megabytes of text must never pass raw.
public enum PayloadHygiene {
    /// The longest payload accepted. Ticket codes and check-in URLs are far shorter.
    public static let defaultMaximumBytes = 2048

    /// Why a payload was refused.
    public enum Rejection: String, Sendable, Equatable, Codable {
        case tooLong = "too_long"
        case invalidUTF8 = "invalid_utf8"
        case controlCharacters = "control_characters"
        case empty
    }

    /// The payload as text, or why it is unreadable.
    public static func check(_ bytes: [UInt8], maximumBytes: Int = defaultMaximumBytes) -> Result<String, RejectionError> {
        guard !bytes.isEmpty else { return .failure(RejectionError(.empty)) }
        guard bytes.count <= maximumBytes else { return .failure(RejectionError(.tooLong)) }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(RejectionError(.invalidUTF8)) }
        // C0/C1 controls (ESC among them), DEL and bidi overrides: what Sanitized.text would drop.
        // Trailing CR/LF/TAB are allowed: some generators end the payload with a newline.
        var body = Substring(text)
        while let last = body.unicodeScalars.last, ["\r", "\n", "\t"].contains(last) { body = body.dropLast() }
        for scalar in body.unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C:
                return .failure(RejectionError(.controlCharacters))
            default: continue
            }
        }
        return .success(String(body))
    }

    /// A rejection as an `Error`, so it fits in `Result`.
    public struct RejectionError: Error, Sendable, Equatable {
        public let reason: Rejection
        init(_ reason: Rejection) { self.reason = reason }
    }
}
