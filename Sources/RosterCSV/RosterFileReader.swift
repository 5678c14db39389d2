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

    /// The file's bytes, once its size and line lengths are known to fit a roster.
    public static func read(_ url: URL) throws(RosterFileError) -> Data {
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw .cannotRead(String(cString: strerror(errno))) }
        guard Int64(info.st_size) <= Int64(maximumBytes) else { throw .tooLarge(bytes: Int64(info.st_size), limit: maximumBytes) }
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw .cannotRead((error as NSError).localizedDescription) }
        try checkLines(data)
        return data
    }

    /// Throws ``RosterFileError/lineTooLong(line:limit:)`` for the first line over the limit.
    static func checkLines(_ data: Data) throws(RosterFileError) {
        var line = 1
        var length = 0
        for byte in data {
            if byte == 0x0A {
                line += 1
                length = 0
            } else {
                length += 1
                if length > maximumLineBytes { throw .lineTooLong(line: line, limit: maximumLineBytes) }
            }
        }
    }
}
