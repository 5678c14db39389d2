import Foundation
// The one file that uses ZIPFoundation, imported implementation-only: its public
// `import CoreFoundation` would otherwise reach every module importing RosterCSV, where
// `stat()` then resolves to CoreFoundation's copy and MemberImportVisibility refuses it (seen
// in Station). No ZIPFoundation type appears outside this file.
@_implementationOnly import ZIPFoundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A workbook's ZIP archive, opened with ZIPFoundation, whose parts are read by streaming
/// them through an `XMLParser` without holding them: ZIPFoundation inflates a part on a thread
/// of its own and hands over a few 64 KB chunks at a time (``ChunkPipe``), which the parser
/// pulls as an `InputStream`. A sheet of 100,000 guests is never in memory as a whole, and a part
/// that inflates to more than its bound is refused as it grows, whatever size the archive claims.
final class WorkbookArchive {
    private let archive: Archive

    /// Opens the archive in a file (read as needed, not loaded).
    init(url: URL) throws(RosterFileError) {
        do { archive = try Archive(url: url, accessMode: .read) } catch { throw Self.notAnArchive }
    }

    /// Opens an archive held in memory.
    init(data: Data) throws(RosterFileError) {
        do { archive = try Archive(data: data, accessMode: .read) } catch { throw Self.notAnArchive }
    }

    private static let notAnArchive = RosterFileError.damagedWorkbook("it is not a complete ZIP archive, perhaps a download cut short")

    /// Whether the archive has a part at `path`.
    func contains(_ path: String) -> Bool { archive[path] != nil }

    /// Parses the part at `path` with `reader`. Throws the first of: what the reader stopped
    /// for, what went wrong inflating the part (damage, its bound), the parser's own error.
    func parse(_ path: String, limit: Int, reader: WorkbookXMLReader) throws(RosterFileError) {
        guard let entry = archive[path] else { throw .damagedWorkbook("it has no \(path)") }
        guard entry.uncompressedSize <= UInt64(limit) else {
            throw .workbookPartTooLarge(part: path, bytes: Int64(clamping: entry.uncompressedSize), limit: limit)
        }
        let pipe = ChunkPipe()
        let inflater = Inflater(archive: archive, entry: entry, part: path, limit: limit, pipe: pipe)
        let thread = Thread { inflater.run() }
        thread.name = "xlsx-inflate"
        thread.start()

        let parser = XMLParser(stream: PipeInputStream(pipe: pipe))
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        reader.parser = parser
        parser.delegate = reader
        let parsed = withExtendedLifetime(reader) { parser.parse() }
        parser.delegate = nil
        reader.parser = nil
        pipe.cancel()
        let inflateError = pipe.waitForProducer()

        if let stop = reader.stop { throw stop }
        if let inflateError { throw inflateError }
        if !parsed || parser.parserError != nil {
            let line = parser.lineNumber
            throw .damagedWorkbook("\(path) is not well-formed XML\(line > 0 ? " near line \(line)" : "")")
        }
        try reader.finish()
    }

    /// Inflates an entry into the pipe, on its own thread; the pipe holds its outcome.
    private final class Inflater: @unchecked Sendable {
        // Only the inflating thread touches the archive while the entry is read.
        let archive: Archive
        let entry: Entry
        let part: String
        let limit: Int
        let pipe: ChunkPipe

        init(archive: Archive, entry: Entry, part: String, limit: Int, pipe: ChunkPipe) {
            (self.archive, self.entry, self.part, self.limit, self.pipe) = (archive, entry, part, limit, pipe)
        }

        func run() {
            var inflated = 0
            let (part, limit, pipe) = (part, limit, pipe)
            do {
                let checksum = try archive.extract(entry, bufferSize: 1 << 16) { chunk in
                    inflated += chunk.count
                    if inflated > limit { throw RosterFileError.workbookPartTooLarge(part: part, bytes: Int64(inflated), limit: limit) }
                    try pipe.put(chunk)
                }
                pipe.finish(checksum == entry.checksum ? nil : .damagedWorkbook("\(part) does not match its checksum"))
            } catch let error as RosterFileError {
                pipe.finish(error)
            } catch is ChunkPipe.Cancelled {
                pipe.finish(nil)
            } catch {
                pipe.finish(.damagedWorkbook("\(part) cannot be unpacked (\(error))"))
            }
        }
    }
}
