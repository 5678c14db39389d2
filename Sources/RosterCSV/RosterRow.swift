import CheckInCore

/// One guest read from a roster file, before it is stored.
public struct RosterRow: Sendable, Hashable {
    /// The physical line of the file where the row starts (the header is line 1).
    public var line: Int
    public var code: TicketCode
    public var name: String
    public var email: String
    public var company: String
    /// The ticket-type name as written in the file ("General" when the file has none).
    public var accessType: String
    /// The export says the ticket must not enter: pretix's `Blocked`, a refunded, cancelled or
    /// not-attending Eventbrite attendee, a generic `blocked` column. Stored as revoked.
    public var revoked: Bool
    /// What the export says about this one ticket beyond who holds it: its own validity window,
    /// a note for the door staff, its order, a check-in made before the import.
    public var facts: TicketFacts {
        get { factsBox?.facts ?? TicketFacts() }
        set { factsBox = newValue == TicketFacts() ? nil : FactsBox(newValue) }
    }
    /// Most rows of most files have no facts: a row holds a reference (8 bytes) instead of the
    /// 80 bytes of ``TicketFacts``, which kept a 100k import over its 100 MB memory target.
    private var factsBox: FactsBox?

    public init(
        line: Int, code: TicketCode, name: String, email: String, company: String, accessType: String, revoked: Bool = false,
        facts: TicketFacts = TicketFacts()
    ) {
        self.line = line
        self.code = code
        self.name = name
        self.email = email
        self.company = company
        self.accessType = accessType
        self.revoked = revoked
        self.factsBox = facts == TicketFacts() ? nil : FactsBox(facts)
    }
}

/// A row's ``TicketFacts``, held by reference.
private final class FactsBox: Sendable, Hashable {
    let facts: TicketFacts
    init(_ facts: TicketFacts) { self.facts = facts }
    static func == (a: FactsBox, b: FactsBox) -> Bool { a.facts == b.facts }
    func hash(into hasher: inout Hasher) { hasher.combine(facts) }
}

/// A row that could not be imported, with the reason in words an organizer can act on.
public struct RosterRejection: Error, Sendable, Hashable, Codable {
    public var line: Int
    public var reason: String

    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }
}

/// The good rows and the rejected ones of a roster file, and how it was read.
public struct RosterFile: Sendable {
    public var rows: [RosterRow]
    public var rejected: [RosterRejection]
    /// Which export format the header looked like (for messages): generic, pretix, eventbrite.
    public var format: String
    public var encoding: RosterEncoding = .utf8
    public var delimiter: RosterDelimiter = .comma
    /// The columns recognised, by what they hold ("ticket code", "name"…), in the file's order.
    public var recognisedColumns: [String] = []
    /// The header's columns this reader does not use (price, voucher, seat…), as written.
    public var ignoredColumns: [String] = []
    /// What the organizer should check although the file was read (an encoding guessed).
    public var warnings: [String] = []

    /// How the file was read, for the import's report: "pretix export, semicolon-separated,
    /// UTF-8 with BOM; columns: ticket code, name, e-mail".
    public var readAs: String {
        "\(format) export, \(source ?? "\(delimiter.name)-separated, \(encoding.rawValue)"); columns: \(recognisedColumns.joined(separator: ", "))"
            + (ignoredColumns.isEmpty ? "" : "; ignored: \(ignoredColumns.map { Sanitized.text($0) }.joined(separator: ", "))")
    }

    /// Why this file cannot replace the roster (`--replace` revokes every guest it lacks), or
    /// nil: a rejected row's guest would be revoked for a typo, an empty file would revoke everyone.
    public var replaceRefusal: String? {
        if rows.isEmpty { return "no guest could be read, so --replace would revoke the whole roster. Nothing was changed." }
        if !rejected.isEmpty {
            return "\(rejected.count) row\(rejected.count == 1 ? " was" : "s were") rejected (first: line \(rejected[0].line), \(rejected[0].reason)), "
                + "so --replace would revoke those guests. Nothing was changed: fix the rows, or import without --replace."
        }
        return nil
    }

    /// What the file was when it was not CSV text ("Excel workbook, first sheet \"Attendees\"").
    public var source: String?

    public init(rows: [RosterRow], rejected: [RosterRejection], format: String) {
        self.rows = rows
        self.rejected = rejected
        self.format = format
    }
}

/// A roster file that cannot be imported at all.
public enum RosterFileError: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    case notUTF8
    /// A UTF-16 file (by its BOM) with an odd number of bytes or broken surrogate pairs.
    case notUTF16
    case missingColumn(String, header: [String])
    case unreadable(String)
    /// Larger than any roster (``RosterFileReader/maximumBytes``), refused before it is read.
    case tooLarge(bytes: Int64, limit: Int)
    /// A line longer than any roster row: a damaged or wrong file, refused before it is parsed.
    case lineTooLong(line: Int, limit: Int)
    /// The file cannot be opened or read.
    case cannotRead(String)
    /// A ZIP archive that is not an Excel workbook (an OpenDocument spreadsheet, a Word document…).
    case notAWorkbook(String)
    /// An old Excel `.xls` or a password-protected workbook: neither is a ZIP of XML parts.
    case legacyExcel
    /// An `.xlsx` that cannot be unpacked or read: damaged, or not written by a spreadsheet program.
    case damagedWorkbook(String)
    /// A part of a workbook unpacks to more than any roster's (``RosterWorkbook/Limits``): a ZIP
    /// bomb or a wrong file, refused as it grows.
    case workbookPartTooLarge(part: String, bytes: Int64, limit: Int)
    /// The sheet has more rows or columns than any roster (``RosterWorkbook/Limits``).
    case sheetTooLarge(String)

    public var description: String {
        switch self {
        case .empty:
            "The roster file is empty: export it again with a header row and one guest per line."
        case .notUTF8:
            "The roster file starts as UTF-8 but is not UTF-8 text: save it as \"CSV UTF-8\" and import it again."
        case .notUTF16:
            "The roster file starts as UTF-16 (\"Unicode text\") but is damaged: save it as \"CSV UTF-8\" and import it again."
        case .missingColumn(let column, let header):
            "The roster file has no \(column) column (found: \(header.joined(separator: ", "))). Rename the column or export with ticket codes."
        case .unreadable(let detail):
            "The roster file is not valid CSV (\(detail)): check quotes and export it again."
        case .tooLarge(let bytes, let limit):
            "The roster file has \(bytes / 1_048_576) MB, more than any roster (limit \(limit / 1_048_576) MB): check that it is the right file."
        case .lineTooLong(let line, let limit):
            "Line \(line) of the roster file is longer than \(limit / 1024) KB, which no guest row is: the file is damaged or not a roster export."
        case .cannotRead(let reason):
            "Cannot read the roster file (\(reason)): check the path and its permissions."
        case .notAWorkbook(let what):
            "The roster file is \(what), not an Excel workbook: open it in your spreadsheet program and save it as .xlsx or CSV."
        case .legacyExcel:
            "The roster file is an old Excel .xls workbook or a password-protected one: open it in your spreadsheet program "
                + "and save it as .xlsx (without a password) or CSV."
        case .damagedWorkbook(let detail):
            "The Excel workbook cannot be read (\(Sanitized.text(detail))): open it in your spreadsheet program, save it again as .xlsx or CSV and import that."
        case .workbookPartTooLarge(let part, _, let limit):
            "The workbook's \(Sanitized.text(part)) unpacks to more than \(limit / 1_048_576) MB, far more than any roster: "
                + "check that it is the right file, or save the guest list alone as .xlsx or CSV."
        case .sheetTooLarge(let detail):
            "The roster's sheet \(detail), far more than any roster: check that it is the right file, or save the guest list alone as .xlsx or CSV."
        }
    }
}
