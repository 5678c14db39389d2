import Foundation

/// Writes CSV a spreadsheet opens safely: RFC 4180 quoting, and no cell a spreadsheet would run as
/// a formula (``FormulaGuard``: a guest named `=HYPERLINK(…)` is shown as the text it is, OWASP's
/// advice for CSV injection).
public enum CSVWriter {
    public static func line(_ fields: [String]) -> String {
        fields.map(cell).joined(separator: ",") + "\r\n"
    }

    /// A field, guarded, and quoted when it holds a comma, a quote or a line end.
    static func cell(_ text: String) -> String {
        let value = FormulaGuard.guarded(text)
        guard value.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return quoted(value)
    }

    /// `value` in double quotes with each of its quotes doubled, scalar by scalar: a `"` followed
    /// by a combining mark is one Swift `Character`, and still a quote to every CSV reader.
    public static func quoted(_ value: String) -> String {
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        for scalar in value.unicodeScalars {
            if scalar == "\"" { quoted.append("\"") }
            quoted.append(scalar)
        }
        quoted.append("\"")
        return String(quoted)
    }
}
