import Foundation

/// Reads a roster file from disk with bounds, so a wrong or hostile file (a 60 MB single field,
/// a disk image) is refused after a `stat` and one scan instead of being parsed into hundreds
/// of megabytes.
public enum RosterFileReader {
    /// The largest roster file accepted: 100,000 guests with long names, e-mails and companies
    /// take about 15 MB.
    public static let maximumBytes = 64 * 1_048_576
    /// The longest physical line accepted: a row of many columns at their length limit
    /// (``RosterCSVParser/maximumFieldLength``) stays far below.
    public static let maximumLineBytes = 256 * 1024

    /// The roster in a file, whatever the file is: an Excel workbook, recognised by the ZIP
    /// signature every `.xlsx` starts with whatever its name (``RosterWorkbook``, first sheet), or
    /// CSV text, read streaming (``RosterCSVParser/parse(contentsOf:options:)``). An old `.xls` or a password-protected
    /// workbook is refused with what to save it as.
    public static func parse(_ url: URL, options: RosterSheet.Options = RosterSheet.Options()) throws(RosterFileError) -> RosterFile {
        let start = try leadingBytes(of: url)
        if RosterWorkbook.isZIP(start) { return try RosterWorkbook.parse(contentsOf: url, options: options) }
        if RosterWorkbook.isLegacyExcel(start) { throw .legacyExcel }
        return try RosterCSVParser.parse(contentsOf: url, options: options)
    }

    /// The first bytes of the file, enough to tell a workbook from text.
    private static func leadingBytes(of url: URL) throws(RosterFileError) -> Data {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { throw .cannotRead(String(cString: strerror(errno))) }
        defer { try? handle.close() }
        do { return try handle.read(upToCount: 8) ?? Data() } catch { throw .cannotRead((error as NSError).localizedDescription) }
    }

    /// Counts bytes per physical line across chunks.
    struct LineLengths {
        let limit: Int
        var line = 1
        var length = 0

        /// Throws ``RosterFileError/lineTooLong(line:limit:)`` for the first line over the limit.
        mutating func check(_ chunk: Data) throws(RosterFileError) {
            for byte in chunk {
                if byte == 0x0A {
                    line += 1
                    length = 0
                } else {
                    length += 1
                    if length > limit { throw .lineTooLong(line: line, limit: limit) }
                }
            }
        }
    }
}
