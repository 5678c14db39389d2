import CSV
import CheckInCore
import Foundation

extension RosterCSVParser {
    /// Reads a roster CSV file streaming: one pass over it in chunks checks its size, its line
    /// lengths and its encoding (``RosterFileScan``), then CSV.swift parses it from the file
    /// record by record, converted to UTF-8 on the way (``RosterFileStream``). Neither the file's
    /// bytes nor its text are held whole, only the guests read from it, whatever its encoding:
    /// a 100k roster imports within the import's 100 MB memory target.
    public static func parse(contentsOf url: URL, options: RosterSheet.Options = RosterSheet.Options()) throws(RosterFileError) -> RosterFile {
        let encoding = try RosterFileScan(url).encoding
        func stream() throws(RosterFileError) -> RosterFileStream {
            guard let stream = RosterFileStream(path: url.path, encoding: encoding) else { throw .cannotRead(String(cString: strerror(errno))) }
            stream.open()
            return stream
        }
        let delimiter = RosterDelimiter.detect(headerOf: try headerLine(of: stream()))
        let reader: CSVReader
        do {
            reader = try CSVReader(stream: try stream(), codecType: UTF8.self, hasHeaderRow: true, trimFields: false, delimiter: delimiter.scalar)
        } catch let error as RosterFileError {
            throw error
        } catch {
            throw .unreadable(String(describing: error))
        }
        var file = try records(reader, options: options)
        file.encoding = encoding
        file.delimiter = delimiter
        if encoding == .windows1252 { file.warnings.append(windows1252Warning(file.rows)) }
        return file
    }

    /// The first line of the file's text (up to a line's length limit).
    static func headerLine(of stream: RosterFileStream) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < RosterFileReader.maximumLineBytes, stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            if let newline = buffer[..<count].firstIndex(of: 0x0A) {
                bytes += buffer[..<newline]
                break
            }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
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

    /// What to check in a file read as Windows-1252, with a few of its accented names.
    static func windows1252Warning(_ rows: [RosterRow]) -> String {
        let accented = rows.lazy.map(\.name).filter { $0.unicodeScalars.contains { !$0.isASCII } }.prefix(3)
        let sample = accented.isEmpty ? "" : " (\(accented.map { Sanitized.text($0) }.joined(separator: ", ")))"
        return "The file is not UTF-8: it was read as Windows-1252 (what Excel saves as \"CSV\" in Western Europe). "
            + "Check that accented names read right\(sample); if not, save it as \"CSV UTF-8\" and import it again."
    }
}

/// One pass over a roster file in chunks, before it is parsed: its size and line lengths within
/// a roster's (``RosterFileReader``), and its encoding as ``RosterTextDecoding`` reads it: UTF-8
/// with or without BOM, UTF-16 by its BOM or its zero bytes (checked whole: a damaged one is
/// refused), Windows-1252 when the bytes are not UTF-8 (a UTF-8 BOM over bytes that are not is
/// refused). Nothing of the file is kept.
struct RosterFileScan {
    private(set) var encoding: RosterEncoding = .utf8

    init(_ url: URL) throws(RosterFileError) {
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw .cannotRead(String(cString: strerror(errno))) }
        guard Int64(info.st_size) <= Int64(RosterFileReader.maximumBytes) else {
            throw .tooLarge(bytes: Int64(info.st_size), limit: RosterFileReader.maximumBytes)
        }
        guard info.st_size > 0 else { throw .empty }
        guard let handle = FileHandle(forReadingAtPath: url.path) else { throw .cannotRead(String(cString: strerror(errno))) }
        defer { try? handle.close() }
        var lines = RosterFileReader.LineLengths(limit: RosterFileReader.maximumLineBytes)
        var carry: [UInt8] = []   // an unfinished character at the end of the last chunk
        var first = true
        var utf16Little = false
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 16) ?? Data() } catch { throw .cannotRead((error as NSError).localizedDescription) }
            if chunk.isEmpty { break }
            try lines.check(chunk)
            var fresh = ArraySlice(chunk)
            if first {
                first = false
                if fresh.starts(with: [0xFF, 0xFE]) || fresh.starts(with: [0xFE, 0xFF]) {
                    utf16Little = fresh.first == 0xFF
                    encoding = utf16Little ? .utf16LittleEndian : .utf16BigEndian
                    fresh = fresh.dropFirst(2)
                } else if let little = RosterTextDecoding.bomlessUTF16(Data(fresh.prefix(128))) {
                    utf16Little = little
                    encoding = little ? .utf16LittleEndian : .utf16BigEndian
                } else if fresh.starts(with: [0xEF, 0xBB, 0xBF]) {
                    encoding = .utf8WithBOM
                    fresh = fresh.dropFirst(3)
                }
            }
            switch encoding {
            case .windows1252:
                continue
            case .utf16LittleEndian, .utf16BigEndian:
                let bytes = carry + fresh
                var units: [UInt16] = []
                var index = bytes.startIndex
                while index + 1 < bytes.endIndex {
                    let (a, b) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
                    units.append(utf16Little ? a | b << 8 : a << 8 | b)
                    index += 2
                }
                var usable = units.count
                if let last = units.last, UTF16.isLeadSurrogate(last) { usable -= 1 }
                guard String(validating: units[..<usable], as: UTF16.self) != nil else { throw .notUTF16 }
                carry = Array(bytes[(bytes.startIndex + usable * 2)...])
            case .utf8, .utf8WithBOM:
                let bytes = carry + fresh
                // Validate up to the last complete sequence; the rest waits for the next chunk.
                var cut = bytes.endIndex
                var back = 0
                while cut > bytes.startIndex, back < 4, bytes[cut - 1] & 0xC0 == 0x80 { cut -= 1; back += 1 }
                if cut > bytes.startIndex, bytes[cut - 1] >= 0xC0 { cut -= 1 } else { cut = bytes.endIndex }
                if String(validating: bytes[..<cut], as: UTF8.self) == nil {
                    if encoding == .utf8WithBOM { throw .notUTF8 }
                    encoding = .windows1252
                    continue
                }
                carry = Array(bytes[cut...])
            }
        }
        switch encoding {
        case .utf16LittleEndian, .utf16BigEndian: if !carry.isEmpty { throw .notUTF16 }
        case .utf8, .utf8WithBOM:
            if !carry.isEmpty && String(validating: carry, as: UTF8.self) == nil {
                if encoding == .utf8WithBOM { throw .notUTF8 }
                encoding = .windows1252
            }
        case .windows1252: break
        }
    }
}
