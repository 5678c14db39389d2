/// What keeps an exported cell from being run as a formula (OWASP's CSV injection advice, and
/// security review F11): a `'` before each part of the text that a spreadsheet could read as a
/// cell starting with `=`, `+`, `-` or `@`, or their full-width forms `＝＋－＠`, after any white
/// space (some programs skip a space or a no-break space first). The parts are the text itself
/// and what follows each `;`, tab or line end in it: Excel in a semicolon locale splits a comma
/// file at `;`, and other programs split at tabs and lines. A text starting with a tab or a
/// carriage return gets the `'` too, as OWASP lists them.
///
/// The `'` shows in the cell (`'=1+1`, `x;'=1+1`): the text stays whole and readable, and is
/// never evaluated. Scalar by scalar, so that no mark combined with a character hides it.
///
/// Used by every CSV file written for people: the station's (``CSVWriter``) and the hub's exports.
public enum FormulaGuard {
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\u{FF1D}", "\u{FF0B}", "\u{FF0D}", "\u{FF20}"]
    /// Where a program may start a new cell inside the text.
    static let separators: Set<Unicode.Scalar> = [";", "\t", "\r", "\n"]

    public static func guarded(_ value: String) -> String {
        var out = String.UnicodeScalarView(), part = String.UnicodeScalarView()
        func endPart() {
            if part.first(where: { !$0.properties.isWhitespace }).map(formulaStarts.contains) == true { out.append("'") }
            out.append(contentsOf: part)
            part = String.UnicodeScalarView()
        }
        for scalar in value.unicodeScalars {
            if separators.contains(scalar) {
                endPart()
                out.append(scalar)
            } else {
                part.append(scalar)
            }
        }
        endPart()
        if let first = value.unicodeScalars.first, first == "\t" || first == "\r" { out.insert("'", at: out.startIndex) }
        return String(out)
    }
}
