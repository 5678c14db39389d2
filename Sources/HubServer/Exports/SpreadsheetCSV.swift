import Foundation

/// A CSV file meant to be opened in a spreadsheet: UTF-8 with a byte-order mark (Excel reads
/// it as UTF-8 only then), CRLF line ends, every field quoted when it must be, and cells that a
/// spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab or a carriage return first)
/// prefixed with `'`, so a guest named `=HYPERLINK(…)` is shown, never evaluated.
public struct SpreadsheetCSV: Sendable {
    private(set) var text = "\u{FEFF}"

    public init(header: [String]) {
        append(header)
    }

    public mutating func append(_ row: [String]) {
        text += row.map(Self.cell).joined(separator: ",") + "\r\n"
    }

    /// The file's bytes.
    public var bytes: [UInt8] { Array(text.utf8) }

    /// One field, guarded against formula injection and quoted where needed.
    public static func cell(_ value: String) -> String {
        var value = value
        if let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { value = "'" + value }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
