import CSV
import CheckInCore
import Foundation

/// Reads a roster CSV export into rows, rejecting bad rows with their line number and reason.
///
/// Accepts the encodings of ``RosterTextDecoding`` (UTF-8 with or without BOM, UTF-16,
/// Windows-1252 with a warning), comma, semicolon or tab as delimiter (``RosterDelimiter``,
/// detected from the header row), CRLF or LF line ends, and quoted fields holding delimiters,
/// quotes and newlines (parsing is CSV.swift's). A row with a problem never stops the import
/// of the good rows.
/// ```swift
/// let file = try RosterCSVParser.parse(data)
/// for rejection in file.rejected { print("line \(rejection.line): \(rejection.reason)") }
/// ```
public enum RosterCSVParser {
    /// The longest field accepted; longer values are damage in the export, not names.
    public static let maximumFieldLength = 1_000

    public static func parse(_ data: Data, options: RosterSheet.Options = RosterSheet.Options()) throws(RosterFileError) -> RosterFile {
        let (text, encoding) = try RosterTextDecoding.decode(data)
        if text.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) { throw .empty }

        let delimiter = RosterDelimiter.detect(headerOf: text)
        let reader: CSVReader
        do {
            reader = try CSVReader(string: text, hasHeaderRow: true, trimFields: false, delimiter: delimiter.scalar)
        } catch {
            throw .unreadable(String(describing: error))
        }
        var file = try records(reader, options: options)
        file.encoding = encoding
        file.delimiter = delimiter
        if encoding == .windows1252 { file.warnings.append(windows1252Warning(file.rows)) }
        return file
    }

    /// The product's one e-mail rule (``CheckInCore/EmailAddress``), shared with the hub's walk-ins.
    static func isPlausibleEmail(_ text: String) -> Bool { EmailAddress.isPlausible(text) }
}

extension String {
    var newlineCount: Int { reduce(0) { $1 == "\n" || $1 == "\r\n" ? $0 + 1 : $0 } }
}
