import Foundation
import Testing
import CheckInCore
@testable import RosterCSV

@Suite("Roster CSV import")
struct RosterCSVParserTests {
    func parse(_ text: String) throws -> RosterFile {
        try RosterCSVParser.parse(Data(text.utf8))
    }

    @Test("a generic sheet with name, email, company, code and access type")
    func generic() throws {
        let file = try parse("name,email,company,code,access_type\nJosé Müller,jose@example.com,ACME,abc1,VIP\n")
        #expect(file.rows.count == 1)
        let row = try #require(file.rows.first)
        #expect(row.name == "José Müller")
        #expect(row.code.value == "ABC1")
        #expect(row.accessType == "VIP")
        #expect(row.line == 2)
        #expect(file.format == "generic")
    }

    @Test("first and last name columns are joined")
    func firstLast() throws {
        let file = try parse("first_name,last_name,ticket_code,ticket_type\nAda,Lovelace,X1,General\n")
        #expect(file.rows.first?.name == "Ada Lovelace")
    }

    @Test("pretix's check-in list export maps Secret, Attendee name, Product, E-mail")
    func pretix() throws {
        let csv = "Order code,Attendee name,Product,Price,Checked in,Secret,E-mail,Company\nABCDE,Ødegård Ås,Day ticket,10.00,No,x7k2m9secret,o@example.no,Fjord AS\n"
        let file = try parse(csv)
        #expect(file.format == "pretix")
        #expect(file.rows.first?.code.value == "X7K2M9SECRET")
        #expect(file.rows.first?.name == "Ødegård Ås")
        #expect(file.rows.first?.accessType == "Day ticket")
        #expect(file.rows.first?.email == "o@example.no")
    }

    @Test("Eventbrite's attendee report maps Barcode #, Ticket Type, First/Last Name")
    func eventbrite() throws {
        let csv = "Order #,Order Date,First Name,Last Name,Email,Quantity,Ticket Type,Attendee #,Barcode #,Company\n123,2026-11-01,王,小明,w@example.cn,1,General Admission,9,1234567890123,北京公司\n"
        let file = try parse(csv)
        #expect(file.format == "eventbrite")
        #expect(file.rows.first?.code.value == "1234567890123")
        #expect(file.rows.first?.name == "王 小明")
        #expect(file.rows.first?.company == "北京公司")
    }

    @Test("a UTF-8 BOM and CRLF line ends are accepted")
    func bomCRLF() throws {
        let file = try parse("\u{FEFF}name,code\r\nA,1\r\nB,2\r\n")
        #expect(file.rows.map(\.name) == ["A", "B"])
        #expect(file.rows.map(\.line) == [2, 3])
    }

    @Test("quoted fields hold commas, quotes and newlines, and line numbers stay physical")
    func quoted() throws {
        let file = try parse("name,company,code\n\"Doe, Jane\",\"The \"\"Best\"\" Co\",1\n\"Multi\nLine\",\"A\r\nB\",2\nLast,,3\n")
        #expect(file.rows.map(\.name) == ["Doe, Jane", "Multi\nLine", "Last"])
        #expect(file.rows[0].company == "The \"Best\" Co")
        #expect(file.rows.map(\.line) == [2, 3, 6])
    }

    @Test("an empty file is refused with a clear message")
    func empty() {
        #expect(throws: RosterFileError.empty) { try parse("") }
        #expect(throws: RosterFileError.empty) { try parse("\n\n") }
    }

    @Test("a file without a code column is refused and names what it found")
    func missingCode() {
        #expect(throws: RosterFileError.missingColumn("ticket code", header: ["name", "email"])) { try parse("name,email\nA,a@b.c\n") }
        let message = RosterFileError.missingColumn("ticket code", header: ["name", "email"]).description
        #expect(message.contains("name, email"))
    }

    @Test("a file that says UTF-8 by its BOM but is not is refused; one without BOM is read as Windows-1252")
    func notUTF8() {
        #expect(throws: RosterFileError.notUTF8) { try RosterCSVParser.parse(Data([0xEF, 0xBB, 0xBF, 0x6E, 0x0A, 0xFF, 0x41])) }
        #expect(throws: RosterFileError.missingColumn("ticket code", header: ["name"])) {
            try RosterCSVParser.parse(Data([0x6E, 0x61, 0x6D, 0x65, 0x0A, 0xFF, 0xFE, 0x41]))
        }
    }

    @Test("blocked pretix tickets, and refunded, cancelled or not-attending Eventbrite attendees, are revoked")
    func revokedByTheExport() throws {
        let pretix = try parse("""
            Order code,Attendee name,Product,Secret,Blocked
            A1,Ann,VIP,s1,Yes
            A2,Bob,VIP,s2,No
            A3,Cy,VIP,s3,
            A4,Dee,VIP,s4,perhaps
            """)
        #expect(pretix.rows.map(\.revoked) == [true, false, false])
        #expect(pretix.rejected.map(\.line) == [5])
        #expect(pretix.rejected.first?.reason.contains("write yes or no") == true)
        #expect(pretix.recognisedColumns.contains("blocked"))
        let eventbrite = try parse("""
            Order #,First Name,Last Name,Barcode #,Ticket Type,Attendee Status
            1,Ann,Lee,111,GA,Attending
            2,Bob,Ray,222,GA,Refunded
            3,Cy,Fox,333,GA,Not Attending
            4,Dee,Kim,444,GA,Cancelled
            5,Eve,Roe,555,GA,Checked In
            """)
        #expect(eventbrite.format == "eventbrite")
        #expect(eventbrite.rows.map(\.revoked) == [false, true, true, true, false])
        let generic = try parse("code,name,blocked\nX1,Ann,x\nX2,Bob,TRUE\nX3,Cy,0\n")
        #expect(generic.rows.map(\.revoked) == [true, true, false])
    }

    @Test("a duplicate code in one file keeps the first and rejects the second with both lines")
    func duplicates() throws {
        let file = try parse("name,code\nA,x1\nB,X1\n")
        #expect(file.rows.map(\.name) == ["A"])
        #expect(file.rejected == [RosterRejection(line: 3, reason: "duplicate ticket code X1 (first on line 2)")])
    }

    @Test("ten bad rows among good ones are each reported with line and reason")
    func badRows() throws {
        var lines = ["name,email,code"]
        var expectedBad: [Int] = []
        for index in 0..<40 {
            let line = index + 2
            switch index % 4 {
            case 1 where expectedBad.count < 10:
                expectedBad.append(line)
                lines.append(["Guest \(index),bad-email,C\(index)", ",x@y.z,C\(index)", "Guest \(index),x@y.z,", "Guest,x@y.z,A B\(index)", "A,b@c.d,C\(index),extra"][expectedBad.count % 5])
            default:
                lines.append("Guest \(index),g\(index)@example.com,C\(index)")
            }
        }
        let file = try parse(lines.joined(separator: "\n"))
        #expect(file.rejected.map(\.line) == expectedBad)
        #expect(file.rows.count == 30)
        #expect(file.rejected.allSatisfy { !$0.reason.isEmpty })
    }

    @Test("blank lines are skipped without shifting line numbers")
    func blankLines() throws {
        let file = try parse("name,code\nA,1\n\nB,2\n")
        #expect(file.rows.map(\.line) == [2, 4])
    }
}

@Suite struct RosterFileReaderTests {
    @Test func aFileLargerThanAnyRosterIsRefusedBeforeItIsRead() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: url) }
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(RosterFileReader.maximumBytes) + 1)   // sparse: no disk used
        try handle.close()
        #expect(throws: RosterFileError.tooLarge(bytes: Int64(RosterFileReader.maximumBytes) + 1, limit: RosterFileReader.maximumBytes)) {
            _ = try RosterFileReader.parse(url)
        }
    }

    @Test func aSingleHugeFieldIsRefusedWithItsLine() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("field-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(("code,name\nA1,Ann\n" + String(repeating: "x", count: RosterFileReader.maximumLineBytes + 1)).utf8).write(to: url)
        #expect(throws: RosterFileError.lineTooLong(line: 3, limit: RosterFileReader.maximumLineBytes)) { _ = try RosterFileReader.parse(url) }
    }
}
