import CSV
import CheckInCore
import Foundation

extension RosterCSVParser {
    /// Reads a roster CSV file streaming: one pass over it in chunks checks its size, its line
    /// lengths and whether it is UTF-8 (keeping only its header line), then CSV.swift parses it
    /// from the file into ``RosterSheet`` record by record. Neither the file's bytes nor its text
    /// are held whole, only the guests read from it: a 100k roster imports within the import's
    /// 100 MB memory target. UTF-16 and Windows-1252 files (rare, and converted as a whole) are
    /// read into memory as ``parse(_:options:)`` does.
    public static func parse(contentsOf url: URL, options: RosterSheet.Options = RosterSheet.Options()) throws(RosterFileError) -> RosterFile {
        let scan = try RosterFileScan(url)
        guard scan.isUTF8 else { return try parse(try RosterFileReader.read(url), options: options) }
        guard scan.hasText else { throw .empty }
        let header = String(decoding: scan.headerLine, as: UTF8.self)
        let delimiter = RosterDelimiter.detect(headerOf: header)
        guard let stream = RosterFileStream(path: url.path) else { throw .cannotRead(String(cString: strerror(errno))) }
        let reader: CSVReader
        do {
            reader = try CSVReader(stream: stream, codecType: UTF8.self, hasHeaderRow: true, trimFields: false, delimiter: delimiter.scalar)
        } catch {
            throw .unreadable(String(describing: error))
        }
        var file = try records(reader, options: options)
        file.encoding = scan.hasBOM ? .utf8WithBOM : .utf8
        file.delimiter = delimiter
        return file
    }

    /// Feeds a CSV reader's records to a ``RosterSheet``, with the physical line each starts on.
    static func records(_ reader: CSVReader, options: RosterSheet.Options) throws(RosterFileError) -> RosterFile {
        guard let header = reader.headerRow else { throw .empty }
        var sheet = try RosterSheet(header: header, options: options)
        // Physical line where the next record starts: the header's own newlines count too.
        var line = 2 + header.reduce(0) { $0 + $1.newlineCount }
        while let fields = reader.next() {
            let recordLine = line
            line += 1 + fields.reduce(0) { $0 + $1.newlineCount }
            if let error = reader.error, !fields.allSatisfy({ $0.trimmedWhitespace().isEmpty }) {
                sheet.reject(line: recordLine, reason: "unreadable CSV: \(error)")
                break
            }
            sheet.add(fields, line: recordLine)
        }
        let file = sheet.file
        if let error = reader.error, file.rows.isEmpty, file.rejected.isEmpty { throw .unreadable(String(describing: error)) }
        return file
    }
}

/// One pass over a roster file in chunks, before it is parsed: its size and line lengths within
/// a roster's (``RosterFileReader``), whether it is UTF-8 text, and its header line.
struct RosterFileScan {
    private(set) var isUTF8 = true
    private(set) var hasBOM = false
    private(set) var hasText = false
    /// The first line's bytes, without a BOM or line end.
    private(set) var headerLine: [UInt8] = []

    init(_ url: URL) throws(RosterFileError) {
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw .cannotRead(String(cString: strerror(errno))) }
        guard Int64(info.st_size) <= Int64(RosterFileReader.maximumBytes) else {
            throw .tooLarge(bytes: Int64(info.st_size), limit: RosterFileReader.maximumBytes)
        }
        guard let handle = FileHandle(forReadingAtPath: url.path) else { throw .cannotRead(String(cString: strerror(errno))) }
        defer { try? handle.close() }
        var lines = RosterFileReader.LineLengths(limit: RosterFileReader.maximumLineBytes)
        var carry: [UInt8] = []   // an incomplete UTF-8 sequence at the end of the last chunk
        var first = true
        var headerDone = false
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 16) ?? Data() } catch { throw .cannotRead((error as NSError).localizedDescription) }
            if chunk.isEmpty { break }
            try lines.check(chunk)
            var fresh = [UInt8](chunk)
            if first {
                first = false
                // UTF-16 (by its BOM or its zero bytes) is read whole by the caller.
                if fresh.starts(with: [0xFF, 0xFE]) || fresh.starts(with: [0xFE, 0xFF]) || RosterTextDecoding.bomlessUTF16(Data(fresh.prefix(128))) != nil {
                    isUTF8 = false
                    return
                }
                if fresh.starts(with: [0xEF, 0xBB, 0xBF]) {
                    hasBOM = true
                    fresh.removeFirst(3)
                }
            }
            if !headerDone {
                let end = fresh.firstIndex(of: 0x0A) ?? fresh.endIndex
                headerLine += fresh[..<end]
                headerDone = end < fresh.endIndex
                if headerDone, headerLine.last == 0x0D { headerLine.removeLast() }
            }
            if !hasText { hasText = fresh.contains { !(($0 == 0x20) || (0x09...0x0D).contains($0)) } }
            let bytes = carry + fresh
            // Validate up to the last complete sequence; the rest waits for the next chunk.
            var cut = bytes.endIndex
            var back = 0
            while cut > bytes.startIndex, back < 4, bytes[cut - 1] & 0xC0 == 0x80 { cut -= 1; back += 1 }
            if cut > bytes.startIndex, bytes[cut - 1] >= 0xC0 { cut -= 1 }
            else { cut = bytes.endIndex }
            guard String(validating: bytes[..<cut], as: UTF8.self) != nil else {
                isUTF8 = false
                return
            }
            carry = Array(bytes[cut...])
        }
        if !carry.isEmpty && String(validating: carry, as: UTF8.self) == nil { isUTF8 = false }
    }
}
