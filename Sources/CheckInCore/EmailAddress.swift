/// The one e-mail syntax check of the product: roster imports, walk-ins at the hub (and the
/// station's walk-in form) accept the same addresses.
///
/// Deliberately loose: one `@` with something before it, a dot after it, and no whitespace.
/// Anything stricter refuses real addresses; the point is to catch a name typed into the
/// e-mail column, not to prove the address exists.
/// ```swift
/// EmailAddress.isPlausible("ana@example.org")  // true
/// EmailAddress.isPlausible("Ana Example")      // false
/// ```
public enum EmailAddress {
    public static func isPlausible(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".")
            && !text.unicodeScalars.contains(where: { $0.properties.isWhitespace })
    }
}
