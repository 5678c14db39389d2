extension StringProtocol {
    /// The text without leading and trailing whitespace and line breaks (CR, LF, TAB included).
    ///
    /// Native replacement for Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)`,
    /// which bridges through `NSString` on Linux and dominated roster-import profiles.
    public func trimmedWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}

extension Unicode.Scalar {
    /// C0 and C1 control characters (ESC, NUL, BEL, DEL, CSI…).
    public var isControl: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}
