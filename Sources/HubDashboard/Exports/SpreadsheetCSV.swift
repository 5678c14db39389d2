import Foundation
import HubServer
import RosterCSV

/// A CSV file meant to be opened in a spreadsheet: UTF-8 with a byte-order mark (Excel reads
/// it as UTF-8 only then), CRLF line ends, every field quoted, and no cell a spreadsheet would
/// run as a formula (``RosterCSV/FormulaGuard``), so a guest named `=HYPERLINK(…)` is shown, never evaluated.
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

    /// One field, guarded against formula injection and quoted: always, so that a program
    /// splitting at another separator still sees one field wherever the quotes are honoured.
    public static func cell(_ value: String) -> String {
        CSVWriter.quoted(FormulaGuard.guarded(value))
    }
}
