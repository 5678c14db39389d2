import CheckInCore
import Foundation
import Testing
@testable import RosterCSV

/// The delimiters and encodings organizers' exports come in, each written here as the program
/// that makes it writes it.
@Suite("Roster file delimiters and encodings")
struct RosterDialectTests {
    /// pretix's check-in list export, as its "Excel" variant writes it for most of Europe.
    static let pretixSemicolon = """
        Order code;Attendee name;Attendee email;Company;Product;Secret
        ABC12;José Müller;jose@example.com;"Müller; Söhne GmbH";Conference ticket;k3x9pq2m
        ABC12;Zoë O'Brien;zoe@example.ie;;VIP;h7w2rt5n

        """

    static func utf16(_ text: String, bigEndian: Bool, bom: Bool) -> Data {
        var data = Data(bom ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : [])
        for unit in text.utf16 {
            let bytes = bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            data.append(contentsOf: bytes)
        }
        return data
    }

    @Test("a semicolon export is read by its header, semicolons inside quotes kept")
    func semicolons() throws {
        let file = try RosterCSVParser.parse(Data(Self.pretixSemicolon.utf8))
        #expect(file.delimiter == .semicolon)
        #expect(file.format == "pretix")
        #expect(file.rows.map(\.name) == ["José Müller", "Zoë O'Brien"])
        #expect(file.rows.first?.company == "Müller; Söhne GmbH")
        #expect(file.rows.first?.code.value == "K3X9PQ2M")
        #expect(file.recognisedColumns == ["order", "name", "e-mail", "company", "access type", "ticket code"])
        #expect(file.readAs == "pretix export, semicolon-separated, UTF-8; columns: order, name, e-mail, company, access type, ticket code")
        #expect(file.warnings.isEmpty)
    }

    @Test("spreadsheets' Unicode text (UTF-16 with BOM, tabs) in both byte orders, and UTF-16 without BOM")
    func utf16Tabs() throws {
        let text = "Name\tEmail\tCode\tTicket type\r\nŁukasz Żółć\tlz@example.pl\tT-1\tVIP\r\n王芳\t\tT-2\tGeneral\r\n"
        for (bigEndian, bom, encoding) in [(false, true, RosterEncoding.utf16LittleEndian), (true, true, .utf16BigEndian),
                                           (false, false, .utf16LittleEndian)] {
            let file = try RosterCSVParser.parse(Self.utf16(text, bigEndian: bigEndian, bom: bom))
            #expect(file.encoding == encoding)
            #expect(file.delimiter == .tab)
            #expect(file.rows.map(\.name) == ["Łukasz Żółć", "王芳"])
            #expect(file.rows.map(\.accessType) == ["VIP", "General"])
        }
        #expect(throws: RosterFileError.notUTF16) { try RosterCSVParser.parse(Self.utf16(text, bigEndian: false, bom: true) + Data([0x41])) }
    }

    @Test("Excel's CSV of Western Europe (Windows-1252, semicolons) is read with a warning to check accents")
    func windows1252() throws {
        // "Name;E-mail;Code\r\nMüller Š €;m@example.de;W1\r\n" as Windows-1252.
        var bytes = Array("Name;E-mail;Code\r\nM".utf8) + [0xFC] + Array("ller ".utf8) + [0x8A, 0x20, 0x80]
        bytes += Array(";m@example.de;W1\r\n".utf8)
        let file = try RosterCSVParser.parse(Data(bytes))
        #expect(file.encoding == .windows1252)
        #expect(file.delimiter == .semicolon)
        #expect(file.rows.first?.name == "Müller Š €")
        #expect(file.warnings.count == 1)
        #expect(file.warnings.first?.contains("CSV UTF-8") == true)
    }

    @Test("UTF-8 with BOM, and a comma file whose names hold semicolons, keep their delimiter")
    func bomAndCommas() throws {
        let bom = try RosterCSVParser.parse(Data([0xEF, 0xBB, 0xBF] + Array("Code;Name\nX1;Ana\n".utf8)))
        #expect(bom.encoding == .utf8WithBOM)
        #expect(bom.rows.first?.name == "Ana")
        let commas = try RosterCSVParser.parse(Data("name,code,company\nAna;Bea,X2,A;B\n".utf8))
        #expect(commas.delimiter == .comma)
        #expect(commas.rows.first?.name == "Ana;Bea")
        #expect(commas.rows.first?.company == "A;B")
    }

    @Test("a header no delimiter makes sense of is refused naming what was found")
    func unknownHeader() {
        #expect(throws: RosterFileError.missingColumn("ticket code", header: ["foo;bar"])) {
            try RosterCSVParser.parse(Data("foo;bar\n1;2\n".utf8))
        }
    }
}
