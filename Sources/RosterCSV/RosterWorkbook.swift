import CheckInCore
import Foundation

/// Reads the first sheet of an Excel workbook (`.xlsx`, as Excel, LibreOffice, Google Sheets and
/// Numbers save it) into a roster, as ``RosterCSVParser`` reads CSV: the first row with a value
/// is the header, each later row a guest, rejected rows named by their row number in the sheet.
///
/// The workbook is a ZIP archive of XML parts, unpacked by ZIPFoundation and read by
/// Foundation's streaming `XMLParser` (``WorkbookArchive``): the sheet passes through a few
/// chunks at a time and each row goes to ``RosterSheet`` as it ends, so a 100,000-guest sheet is
/// never held as XML or as cells. Each part is bounded (``Limits``) as it unpacks, so a ZIP bomb
/// or a wrong file is refused, not read into memory.
/// ```swift
/// let file = try RosterWorkbook.parse(contentsOf: url)
/// print(file.readAs)   // pretix export, Excel workbook, sheet "Attendees"; columns: …
/// ```
public enum RosterWorkbook {
    /// How large a workbook and its parts may be before it is refused as no roster.
    public struct Limits: Sendable {
        /// The `.xlsx` file itself: 100,000 guests take a few MB compressed.
        public var fileBytes = 32 * 1_048_576
        /// The sheet's XML unpacked: 100,000 guests of ten columns take about 40 MB.
        public var sheetBytes = 256 * 1_048_576
        /// The shared strings' XML unpacked (names, e-mails, companies: most of a roster's text).
        public var sharedStringsBytes = 64 * 1_048_576
        /// The workbook's list of sheets, its relationships, its styles.
        public var otherPartBytes = 16 * 1_048_576
        /// Different texts in the shared strings: ten per guest of 100,000 is a million.
        public var sharedStrings = 2_000_000
        /// Rows of guests after the header: two and a half times the 100,000 a station is measured for.
        public var rows = 250_000
        /// Columns, Excel's own bound (A to XFD).
        public var columns = 16_384

        public init() {}

        public static let standard = Limits()
    }

    /// Reads the workbook at `url`; the file is opened, not read into memory.
    public static func parse(
        contentsOf url: URL, options: RosterSheet.Options = RosterSheet.Options(), limits: Limits = .standard
    ) throws(RosterFileError) -> RosterFile {
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw .cannotRead(String(cString: strerror(errno))) }
        guard Int64(info.st_size) <= Int64(limits.fileBytes) else { throw .tooLarge(bytes: Int64(info.st_size), limit: limits.fileBytes) }
        return try read(WorkbookArchive(url: url), options: options, limits: limits)
    }

    /// Reads a workbook held in memory.
    public static func parse(
        _ data: Data, options: RosterSheet.Options = RosterSheet.Options(), limits: Limits = .standard
    ) throws(RosterFileError) -> RosterFile {
        guard data.count <= limits.fileBytes else { throw .tooLarge(bytes: Int64(data.count), limit: limits.fileBytes) }
        return try read(WorkbookArchive(data: data), options: options, limits: limits)
    }

    /// Whether a file starting with `bytes` is a ZIP archive, as every `.xlsx` is (`PK\3\4`, or
    /// `PK\5\6` for an empty archive): what a workbook is recognised by, whatever its name.
    public static func isZIP(_ bytes: some Collection<UInt8>) -> Bool {
        let start = Array(bytes.prefix(4))
        return start == [0x50, 0x4B, 0x03, 0x04] || start == [0x50, 0x4B, 0x05, 0x06]
    }

    /// Whether a file starting with `bytes` is an OLE compound file: an Excel `.xls` of before
    /// 2007, or a password-protected `.xlsx` (which is encrypted inside one).
    public static func isLegacyExcel(_ bytes: some Collection<UInt8>) -> Bool {
        Array(bytes.prefix(8)) == [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]
    }

    static func read(_ archive: WorkbookArchive, options: RosterSheet.Options, limits: Limits) throws(RosterFileError) -> RosterFile {
        let parts = try WorkbookParts.locate(in: archive, limits: limits)
        var strings = SharedStrings()
        if let path = parts.sharedStrings {
            let reader = SharedStringsReader(limits: limits)
            try archive.parse(path, limit: limits.sharedStringsBytes, reader: reader)
            strings = reader.strings
        }
        var dateStyles: [Bool] = []
        if let path = parts.styles {
            let reader = StylesReader()
            try archive.parse(path, limit: limits.otherPartBytes, reader: reader)
            dateStyles = reader.dateStyles
        }
        let reader = WorkbookSheetReader(strings: strings, dateStyles: dateStyles, date1904: parts.date1904, limits: limits, options: options)
        try archive.parse(parts.sheet, limit: limits.sheetBytes, reader: reader)
        guard var file = reader.sheet?.file else { throw .empty }
        file.source = parts.sheetName.map { "Excel workbook, sheet \"\(Sanitized.text($0))\"" } ?? "Excel workbook"
        return file
    }
}
