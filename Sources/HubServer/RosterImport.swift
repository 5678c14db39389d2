import CheckInCore
import Foundation
import HubAPI
import RosterCSV

/// One roster import, the one way both `checkin-hub import` and the dashboard's upload do it:
/// the file read by ``RosterCSV/RosterFileReader/parse(_:options:)`` (CSV or `.xlsx`, the same
/// bounds), dates without an offset taken in the event's time zone, the `replace` refusal, then
/// ``EventRepository/importRoster(event:rows:replace:audit:)``.
public enum RosterImport {
    /// What an import read and did: the command's and the page's report.
    public struct Report: Sendable {
        public var file: RosterFile
        public var summary: ImportSummary
    }

    /// Why nothing was imported, in words for the person who chose the file.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file is no roster this hub reads (``RosterCSV/RosterFileError``): nothing changed.
        case unreadable(RosterFileError)
        /// `replace` with rejected rows, or no row at all: nothing changed.
        case replaceRefused(String)
        /// Named like an Excel workbook but not one (text, or anything else renamed `.xlsx`).
        case notTheWorkbookItsNameSays
        /// Neither a workbook nor text: a photo, a PDF, a database file…
        case notText


        public var description: String {
            switch self {
            case .unreadable(let error): error.description
            case .replaceRefused(let reason): reason
            case .notText:
                "The file is neither text (CSV) nor an Excel workbook: export the roster from the ticket shop or the spreadsheet as CSV or .xlsx."
            case .notTheWorkbookItsNameSays:
                "The file is named like an Excel workbook (.xlsx) but is not one: save it from the spreadsheet as .xlsx or as CSV and upload that."
            }
        }
    }

    /// Reads `file` and imports it into `event`; with `audit`, its entry is written in the
    /// import's transaction.
    /// - Parameter name: the name the person gave the file (an upload's), when not the path's.
    /// - Throws: ``Failure`` for a file that cannot be imported (nothing changed); the store's errors.
    public static func run(_ file: URL, into event: EventSummary, replace: Bool, store: any EventRepository, named name: String? = nil,
                           audit: (@Sendable (ImportSummary) -> OrganizerAction)? = nil) async throws -> Report {
        let parsed = try read(file, named: name, for: event)
        if replace, let refusal = parsed.replaceRefusal { throw Failure.replaceRefused(refusal) }
        let summary = try await store.importRoster(event: event.id, rows: parsed.rows, replace: replace, audit: audit)
        return Report(file: parsed, summary: summary)
    }

    /// Whether a file's first bytes hold a NUL outside UTF-16 text (which has its BOM): no CSV does.
    static func looksBinary(_ start: Data) -> Bool {
        let bom = Array(start.prefix(2))
        if bom == [0xFF, 0xFE] || bom == [0xFE, 0xFF] { return false }
        return start.contains(0)
    }

    /// The file's rows as the event reads them (no store involved).
    public static func read(_ file: URL, named name: String? = nil, for event: EventSummary) throws(Failure) -> RosterFile {
        // The reader goes by the content (a workbook is a ZIP whatever its name); a `.xlsx` that
        // is not one was renamed or saved wrongly, and reading it as text would only confuse.
        if let handle = FileHandle(forReadingAtPath: file.path) {
            let start = (try? handle.read(upToCount: 4096)) ?? Data()
            try? handle.close()
            let workbook = RosterWorkbook.isZIP(start) || RosterWorkbook.isLegacyExcel(start)
            if (name ?? file.lastPathComponent).lowercased().hasSuffix(".xlsx"), !RosterWorkbook.isZIP(start) { throw .notTheWorkbookItsNameSays }
            if !workbook, looksBinary(start) { throw .notText }
        }
        // Dates without an offset (a ticket's valid from/until) are the event's local times.
        let options = RosterSheet.Options(timeZone: TimeZone(identifier: event.timeZone) ?? TimeZone(identifier: "UTC")!)
        do { return try RosterFileReader.parse(file, options: options) } catch { throw .unreadable(error) }
    }
}
