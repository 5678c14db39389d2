import Foundation

/// Writes CSV a spreadsheet opens safely: RFC 4180 quoting, and a cell that a spreadsheet would
/// run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return: a guest named
/// `=HYPERLINK(…)`) is prefixed with `'`, so it is shown as the text it is (OWASP's advice for
/// CSV injection).
public enum CSVWriter {
    public static func line(_ fields: [String]) -> String {
        fields.map(cell).joined(separator: ",") + "\r\n"
    }

    static func cell(_ text: String) -> String {
        var value = text
        if let first = value.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) { value = "'" + value }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
