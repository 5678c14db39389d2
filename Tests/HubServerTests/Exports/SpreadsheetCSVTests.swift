import CheckInCore
import Foundation
import HubAPI
@testable import HubServer
import Testing

/// Exports open in a spreadsheet as written, and never run what a guest typed.
struct SpreadsheetCSVTests {
    @Test func aFileStartsWithAByteOrderMarkAndEndsLinesWithCRLF() {
        var file = SpreadsheetCSV(header: ["Name", "Company"])
        file.append(["Zoë", "Ünïcode GmbH"])
        #expect(file.bytes.starts(with: [0xEF, 0xBB, 0xBF]))
        #expect(String(decoding: file.bytes.dropFirst(3), as: UTF8.self) == "Name,Company\r\nZoë,Ünïcode GmbH\r\n")
    }

    @Test(arguments: ["=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)", "\tTab", "\rCR"])
    func aCellAFormulaWouldStartWithIsPrefixedWithAQuote(value: String) {
        #expect(SpreadsheetCSV.cell(value).hasPrefix("'") || SpreadsheetCSV.cell(value).hasPrefix("\"'"))
    }

    @Test func commasQuotesAndLineBreaksAreQuoted() {
        #expect(SpreadsheetCSV.cell("Smith, Jane") == "\"Smith, Jane\"")
        #expect(SpreadsheetCSV.cell("The \"Boss\"") == "\"The \"\"Boss\"\"\"")
        #expect(SpreadsheetCSV.cell("two\nlines") == "\"two\nlines\"")
        #expect(SpreadsheetCSV.cell("plain") == "plain")
        #expect(SpreadsheetCSV.cell("") == "")
    }

    @Test func attendanceShowsTimesInTheEventsZoneAndNamesIt() {
        let record = AttendanceRecord(code: "G1", name: "Ada", email: "ada@example.org", company: "", accessType: "General", walkIn: false,
                                      revoked: false, firstEntry: Timestamp(milliseconds: 1_790_000_000_000), firstStation: "Door A",
                                      firstOperator: "Alex", entries: 2, lastExit: nil)
        let text = String(decoding: ExportDocuments.attendance([record], time: WebTime(timeZone: "Europe/Berlin")).bytes.dropFirst(3), as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines[0].contains("First admission (Europe/Berlin)"))
        // 1_790_000_000_000 ms is 2026-09-21 14:13:20 UTC, 16:13:20 in Berlin (summer time).
        #expect(lines[1] == "G1,Ada,ada@example.org,,General,no,no,yes,2026-09-21 16:13:20,Door A,Alex,2,")
    }

    @Test func anExportFileNameKeepsOnlySafeCharactersOfTheEventID() {
        #expect(ExportFiles.fileName(event: "autumn-gala", .attendance) == "autumn-gala-attendance.csv")
        #expect(ExportFiles.fileName(event: "a\"b/../c\r\n", .log) == "abc-log.csv")
        #expect(ExportFiles.fileName(event: "\"", .conflicts) == "event-conflicts.csv")
    }
}
