import CheckInCore
import Foundation
import HubAPI
@testable import HubDashboard
@testable import HubServer
import Testing

/// Exports open in a spreadsheet as written, and never run what a guest typed.
struct SpreadsheetCSVTests {
    @Test func aFileStartsWithAByteOrderMarkAndEndsLinesWithCRLF() {
        var file = SpreadsheetCSV(header: ["Name", "Company"])
        file.append(["Zoë", "Ünïcode GmbH"])
        #expect(file.bytes.starts(with: [0xEF, 0xBB, 0xBF]))
        #expect(String(decoding: file.bytes.dropFirst(3), as: UTF8.self) == "\"Name\",\"Company\"\r\n\"Zoë\",\"Ünïcode GmbH\"\r\n")
    }

    @Test(arguments: ["=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)", "\tTab", "\rCR",
                      // White space first, and the full-width signs (security review F11).
                      " =1+1", "\u{00A0}=1+1", "\u{3000}@A1", "\u{FF1D}1+1", "\u{FF0B}1", "\u{FF0D}1", "\u{FF20}A1"])
    func aCellAFormulaWouldStartWithIsPrefixedWithAQuote(value: String) {
        #expect(SpreadsheetCSV.cell(value).unicodeScalars.starts(with: "\"'".unicodeScalars), "\(SpreadsheetCSV.cell(value))")
    }

    @Test func everyPartAProgramMaySplitACellIntoIsGuardedToo() {
        #expect(SpreadsheetCSV.cell("x;=1+1") == "\"x;'=1+1\"")
        #expect(SpreadsheetCSV.cell("a; b;\u{00A0}-3") == "\"a; b;'\u{00A0}-3\"")
        #expect(SpreadsheetCSV.cell("tab\t+4") == "\"tab\t'+4\"")
        #expect(SpreadsheetCSV.cell("two\r\n=5") == "\"two\r\n'=5\"")
        #expect(SpreadsheetCSV.cell("a;b - c") == "\"a;b - c\"", "a sign inside a part is no formula")
        #expect(SpreadsheetCSV.cell("Müller-Lüdenscheidt") == "\"Müller-Lüdenscheidt\"")
    }

    @Test func everyFieldIsQuotedAndItsQuotesDoubledScalarByScalar() {
        #expect(SpreadsheetCSV.cell("Smith, Jane") == "\"Smith, Jane\"")
        #expect(SpreadsheetCSV.cell("The \"Boss\"") == "\"The \"\"Boss\"\"\"")
        #expect(SpreadsheetCSV.cell("two\nlines") == "\"two\nlines\"")
        #expect(SpreadsheetCSV.cell("plain") == "\"plain\"")
        #expect(SpreadsheetCSV.cell("") == "\"\"")
        // A quote with a combining mark is one Character but still a quote to a CSV reader.
        #expect(Array(SpreadsheetCSV.cell("a\"\u{0301},=1").unicodeScalars) == Array("\"a\"\"\u{0301},=1\"".unicodeScalars))
    }

    @Test func attendanceShowsTimesInTheEventsZoneAndNamesIt() {
        let record = AttendanceRecord(code: "G1", name: "Ada", email: "ada@example.org", company: "", accessType: "General", walkIn: false,
                                      revoked: false, firstEntry: Timestamp(milliseconds: 1_790_000_000_000), firstStation: "Door A",
                                      firstOperator: "Alex", entries: 2, lastExit: nil)
        let text = String(decoding: ExportDocuments.attendance([record], time: WebTime(timeZone: "Europe/Berlin")).bytes.dropFirst(3), as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines[0].contains("First admission (Europe/Berlin)"))
        // 1_790_000_000_000 ms is 2026-09-21 14:13:20 UTC, 16:13:20 in Berlin (summer time).
        #expect(lines[1] == #""G1","Ada","ada@example.org","","General","no","no","yes","2026-09-21 16:13:20","Door A","Alex","2","""#)
    }

    @Test func anExportFileNameKeepsOnlySafeCharactersOfTheEventID() {
        #expect(ExportFiles.fileName(event: "autumn-gala", .attendance) == "autumn-gala-attendance.csv")
        #expect(ExportFiles.fileName(event: "a\"b/../c\r\n", .log) == "abc-log.csv")
        #expect(ExportFiles.fileName(event: "\"", .conflicts) == "event-conflicts.csv")
    }
}
