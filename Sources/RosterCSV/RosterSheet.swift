import CheckInCore
import Foundation

/// Turns a roster's header and records into guests, whatever file they came from (CSV text,
/// an `.xlsx` sheet): one record at a time, so a reader can stream its file through it.
///
/// ```swift
/// var sheet = try RosterSheet(header: header, options: options)
/// for (line, fields) in records { sheet.add(fields, line: line) }
/// let file = sheet.file
/// ```
public struct RosterSheet: Sendable {
    /// How values are read: ticket-code case, the time zone of dates written without one.
    public struct Options: Sendable {
        public var caseInsensitiveCodes: Bool
        public var timeZone: TimeZone
        /// When the file is read: a "Checked in" column that says only "yes" means before this.
        public var importedAt: Timestamp

        public init(caseInsensitiveCodes: Bool = true, timeZone: TimeZone = .current, importedAt: Timestamp = .now()) {
            self.caseInsensitiveCodes = caseInsensitiveCodes
            self.timeZone = timeZone
            self.importedAt = importedAt
        }
    }

    let columns: RosterColumns
    let headerCount: Int
    let options: Options
    public private(set) var file: RosterFile
    private var firstLineOfCode: [TicketCode: Int] = [:]
    private let usedFields: Set<Int>

    /// Throws when the header lacks a ticket code or a name column.
    public init(header: [String], options: Options = Options()) throws(RosterFileError) {
        guard !header.allSatisfy({ $0.trimmedWhitespace().isEmpty }) else { throw .empty }
        columns = try RosterColumns(header: header)
        usedFields = columns.used
        headerCount = header.count
        self.options = options
        file = RosterFile(rows: [], rejected: [], format: columns.format)
        file.recognisedColumns = columns.recognised
        file.ignoredColumns = columns.ignored(header)
    }

    /// Reads one record (a blank one is skipped); `line` is where it starts in the file.
    public mutating func add(_ fields: [String], line: Int) {
        if fields.allSatisfy({ $0.trimmedWhitespace().isEmpty }) { return }
        switch RosterRowReader(columns: columns, headerCount: headerCount, options: options).row(fields, line: line) {
        case .failure(let rejection):
            file.rejected.append(rejection)
        case .success(let row):
            if let first = firstLineOfCode[row.code] {
                file.rejected.append(RosterRejection(line: line, reason: "duplicate ticket code \(row.code.value) (first on line \(first))"))
            } else {
                firstLineOfCode[row.code] = line
                file.rows.append(row)
            }
        }
    }

    /// Whether the field at `index` is read into guests (the others are only listed as ignored).
    func reads(field index: Int) -> Bool { usedFields.contains(index) }

    /// Adds what the organizer should check although the file was read.
    mutating func warn(_ warning: String) { file.warnings.append(warning) }

    /// Records a record the reader could not read at all.
    public mutating func reject(line: Int, reason: String) {
        file.rejected.append(RosterRejection(line: line, reason: reason))
    }
}
