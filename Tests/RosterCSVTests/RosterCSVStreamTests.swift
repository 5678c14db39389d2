import CheckInCore
import Foundation
import Testing
@testable import RosterCSV

/// A roster file read streaming from disk reads exactly as the same bytes read in memory.
@Suite struct RosterCSVStreamTests {
    static let wide = String(repeating: "é", count: 40_000)  // 80 KB of two-byte characters: sequences cut by every chunk

    static let files: [(name: String, bytes: Data)] = [
        ("comma", Data("code,name,email\nA1,Ana,ana@example.org\nA2,\"Bo, \"\"B\"\"\",\n".utf8)),
        ("semicolon with BOM and CRLF", Data([0xEF, 0xBB, 0xBF]) + Data("Order code;Attendee name;Secret\r\nF1;José;s1\r\nF1;\"Zoë\r\nO'Brien\";s2\r\n".utf8)),
        ("tab", Data("name\tcode\nAna\tT1\n".utf8)),
        ("multibyte across chunks", Data("code,name,company\nA1,Ana,\(wide.prefix(900))\nA2,王芳,\(wide.prefix(999))\n".utf8)
            + Data((0..<200).map { "C\($0),Ümit \($0),\(wide.prefix(300))\n" }.joined().utf8)),
        ("Windows-1252", Data("code;name\nA1;Jos".utf8) + Data([0xE9]) + Data("\n".utf8)),
        ("UTF-16 LE", Data([0xFF, 0xFE]) + Data("code,name\nA1,Ana\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })),
        ("UTF-16 BE, surrogate pairs across chunks", Data([0xFE, 0xFF]) + Data(("code,name\n" + (0..<3000).map { "E\($0),Emoji 😀 \($0) 王\n" }.joined())
            .utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })),
        ("UTF-16 LE without BOM", Data("code\tname\nA1\tAna\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })),
        ("Windows-1252 over many chunks", Data(("code;name\n" + (0..<5000).map { "W\($0);Jos\u{E9} \($0)\n" }.joined()).unicodeScalars.map { UInt8($0.value) })),
        ("bad rows", Data("code,name,email\n,No Code,\nB1,Bad,nope\nB2,Good,\nB2,Again,\n".utf8)),
    ]

    @Test(arguments: files.map(\.name))
    func streamingReadsAsInMemory(_ name: String) throws {
        let bytes = try #require(Self.files.first { $0.name == name }?.bytes)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID().uuidString).csv")
        try bytes.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let streamed = try RosterCSVParser.parse(contentsOf: url)
        let whole = try RosterCSVParser.parse(bytes)
        #expect(streamed.rows.count == whole.rows.count)
        #expect(streamed.rows == whole.rows, "rows differ")
        #expect(streamed.rejected == whole.rejected)
        #expect(streamed.encoding == whole.encoding)
        #expect(streamed.delimiter == whole.delimiter)
        #expect(streamed.readAs == whole.readAs)
        #expect(streamed.warnings == whole.warnings)
        #expect(!streamed.rows.isEmpty)
    }

    @Test func aDamagedUTF16FileIsRefusedAsInMemory() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stream-bad16-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: url) }
        try (Data([0xFF, 0xFE]) + Data("code,name\nA1,Ana\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }) + Data([0x00, 0xDC, 0x41, 0x00])).write(to: url)
        #expect(throws: RosterFileError.notUTF16) { try RosterCSVParser.parse(contentsOf: url) }
        try (Data([0xEF, 0xBB, 0xBF]) + Data("code,name\nA1,Jos".utf8) + Data([0xE9, 0x0A])).write(to: url)
        #expect(throws: RosterFileError.notUTF8) { try RosterCSVParser.parse(contentsOf: url) }
    }

    @Test func emptyAndOversizedFilesAreRefusedAsInMemory() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stream-empty-\(UUID().uuidString).csv")
        try Data(" \n\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: RosterFileError.empty) { try RosterCSVParser.parse(contentsOf: url) }
        try Data(("code,name\n" + String(repeating: "x", count: RosterFileReader.maximumLineBytes + 1)).utf8).write(to: url)
        #expect(throws: RosterFileError.lineTooLong(line: 2, limit: RosterFileReader.maximumLineBytes)) { try RosterCSVParser.parse(contentsOf: url) }
    }
}
