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

    public static func parse(_ data: Data, caseInsensitiveCodes: Bool = true) throws(RosterFileError) -> RosterFile {
        let (text, encoding) = try RosterTextDecoding.decode(data)
        if text.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) { throw .empty }

        let delimiter = RosterDelimiter.detect(headerOf: text)
        let reader: CSVReader
        do {
            reader = try CSVReader(string: text, hasHeaderRow: true, trimFields: false, delimiter: delimiter.scalar)
        } catch {
            throw .unreadable(String(describing: error))
        }
        guard let header = reader.headerRow, !header.allSatisfy({ $0.trimmedWhitespace().isEmpty })
        else { throw .empty }
        let columns = try RosterColumns(header: header)

        var rows: [RosterRow] = []
        var rejected: [RosterRejection] = []
        var firstLineOfCode: [TicketCode: Int] = [:]
        // Physical line where the next record starts: the header's own newlines count too.
        var line = 2 + header.reduce(0) { $0 + $1.newlineCount }

        while let fields = reader.next() {
            let recordLine = line
            line += 1 + fields.reduce(0) { $0 + $1.newlineCount }
            if fields.allSatisfy({ $0.trimmedWhitespace().isEmpty }) { continue }
            if let error = reader.error {
                rejected.append(RosterRejection(line: recordLine, reason: "unreadable CSV: \(error)"))
                break
            }
            switch row(fields, columns: columns, headerCount: header.count, line: recordLine, caseInsensitive: caseInsensitiveCodes) {
            case .failure(let rejection):
                rejected.append(rejection)
            case .success(let row):
                if let first = firstLineOfCode[row.code] {
                    rejected.append(RosterRejection(line: recordLine, reason: "duplicate ticket code \(row.code.value) (first on line \(first))"))
                } else {
                    firstLineOfCode[row.code] = recordLine
                    rows.append(row)
                }
            }
        }
        if let error = reader.error, rows.isEmpty, rejected.isEmpty { throw .unreadable(String(describing: error)) }
        var file = RosterFile(rows: rows, rejected: rejected, format: columns.format)
        file.encoding = encoding
        file.delimiter = delimiter
        file.recognisedColumns = columns.recognised
        if encoding == .windows1252 {
            let accented = rows.lazy.map(\.name).filter { $0.unicodeScalars.contains { !$0.isASCII } }.prefix(3)
            let sample = accented.isEmpty ? "" : " (\(accented.map { Sanitized.text($0) }.joined(separator: ", ")))"
            file.warnings.append("The file is not UTF-8: it was read as Windows-1252 (what Excel saves as \"CSV\" in Western Europe). "
                + "Check that accented names read right\(sample); if not, save it as \"CSV UTF-8\" and import it again.")
        }
        return file
    }

    private static func row(
        _ fields: [String], columns: RosterColumns, headerCount: Int, line: Int, caseInsensitive: Bool
    ) -> Result<RosterRow, RosterRejection> {
        func reject(_ reason: String) -> Result<RosterRow, RosterRejection> { .failure(RosterRejection(line: line, reason: reason)) }
        if fields.count > headerCount {
            return reject("\(fields.count) fields but the header has \(headerCount): a delimiter inside an unquoted field?")
        }
        func field(_ index: Int?) -> String {
            guard let index, index < fields.count else { return "" }
            return fields[index].trimmedWhitespace()
        }
        if let long = fields.first(where: { $0.utf8.count > maximumFieldLength && $0.count > maximumFieldLength }) {
            return reject("a field is \(long.count) characters long (limit \(maximumFieldLength))")
        }
        let rawCode = field(columns.code)
        guard !rawCode.isEmpty else { return reject("missing ticket code") }
        guard let code = TicketCode(normalizing: rawCode, caseInsensitive: caseInsensitive) else {
            return reject("ticket code is not usable (spaces or control characters inside)")
        }
        var name = field(columns.name)
        if name.isEmpty {
            name = [field(columns.firstName), field(columns.lastName)].filter { !$0.isEmpty }.joined(separator: " ")
        }
        if name.contains("\u{0}") { name = String(String.UnicodeScalarView(name.unicodeScalars.filter { $0 != "\u{0}" })) }
        guard !name.isEmpty else { return reject("missing name") }
        let email = field(columns.email)
        if !email.isEmpty && !isPlausibleEmail(email) { return reject("e-mail address \"\(Sanitized.text(email))\" is not valid") }
        let accessType = field(columns.accessType)
        let blocked: Bool
        switch RosterFlag.parse(field(columns.blocked)) {
        case .some(let flag): blocked = flag
        case nil: return reject("blocked is \"\(Sanitized.text(field(columns.blocked)))\": write yes or no (also true/false, 1/0, x or empty)")
        }
        let status = field(columns.attendeeStatus).lowercased()
        let cancelled = ["refunded", "cancelled", "canceled", "not attending", "deleted", "transferred"].contains(status)
        return .success(RosterRow(
            line: line, code: code, name: name, email: email, company: field(columns.company),
            accessType: accessType.isEmpty ? "General" : accessType, revoked: blocked || cancelled))
    }

    /// The product's one e-mail rule (``CheckInCore/EmailAddress``), shared with the hub's walk-ins.
    static func isPlausibleEmail(_ text: String) -> Bool { EmailAddress.isPlausible(text) }
}

extension String {
    var newlineCount: Int { reduce(0) { $1 == "\n" || $1 == "\r\n" ? $0 + 1 : $0 } }
}
