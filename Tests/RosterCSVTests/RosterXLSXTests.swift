import CheckInCore
import Foundation
import KioskTestSupport
import Testing
@testable import RosterCSV

/// Rosters saved as Excel workbooks: each fixture is written here as spreadsheet programs write
/// `.xlsx` files (shared strings, inline strings, styles, cells named by reference).
@Suite("Roster .xlsx import")
struct RosterXLSXTests {
    static let vienna = TimeZone(identifier: "Europe/Vienna")!
    static let options = RosterSheet.Options(timeZone: vienna)

    /// 2026-11-24 08:30 as Excel counts it: days since 1899-12-30, the time a fraction of a day.
    static let validFromSerial = 46_350 + 8.5 / 24

    /// pretix's check-in list, as Excel saves it after an organizer opened the export.
    static let pretixCheckInList = WorkbookFixture(sheets: [WorkbookFixture.Sheet(name: "Attendees", path: "xl/worksheets/sheet1.xml", rows: [
        (1, ["Order code", "Attendee name", "Product", "Secret", "E-mail", "Company", "Requires special attention", "Blocked", "Valid from",
             "Check-in text"].map { .shared($0) }),
        (2, [.shared("A1B2C"), .shared("José Müller"), .shared("Conference"), .shared("k3x9pq2m"), .shared("jose@example.com"), .shared("ACME"),
             .shared("No"), .boolean(false), .date(validFromSerial), .shared("Hand out the VIP lanyard")]),
        // An inline string, a ticket code Excel turned into a number, no company (an empty cell in the middle).
        (3, [.shared("A1B2C"), .inline("Zoë O'Brien"), .shared("Conference"), .number("4711001"), .shared("zoe@example.ie"), nil,
             .shared("Yes"), .shared("Yes"), nil, nil]),
        (5, [.shared("D4E5F"), .shared("Bad Mail"), .shared("Workshop"), .shared("q1w2e3r4"), .shared("not-an-address"), nil, nil, nil, nil, nil]),
        (6, [.shared("D4E5F"), .richText(["Łukasz ", "Żółć"]), .shared("Workshop"), .number("4711002.0"), nil, .formulaText("FJORD AS"),
             nil, .boolean(true), .builtInDate(46_351), nil]),
    ])])

    func write(_ fixture: WorkbookFixture, named name: String = "roster.xlsx", in directory: TemporaryDirectory) throws -> URL {
        let url = directory.appending(name)
        try fixture.write(to: url)
        return url
    }

    /// A ZIP of the given parts as they are, for workbooks no fixture writer would make.
    func writeParts(_ parts: [String: String], named name: String = "parts.xlsx", in directory: TemporaryDirectory) throws -> URL {
        let url = directory.appending(name)
        try WorkbookFixture.writeParts(parts, to: url)
        return url
    }

    func wallClock(_ text: String) throws -> Timestamp {
        try #require(RosterDate.parse(text, timeZone: Self.vienna))
    }

    @Test func aPretixCheckInListSavedAsXlsxImportsItsGuestsWithTheirTicketFacts() throws {
        let directory = TemporaryDirectory("xlsx")
        defer { directory.remove() }
        let file = try RosterFileReader.parse(try write(Self.pretixCheckInList, in: directory), options: Self.options)

        #expect(file.format == "pretix")
        #expect(file.source == "Excel workbook, sheet \"Attendees\"")
        #expect(file.readAs == "pretix export, Excel workbook, sheet \"Attendees\"; columns: order, name, access type, ticket code, e-mail, "
            + "company, attention, blocked, valid from, check-in text")
        #expect(file.rows.map(\.name) == ["José Müller", "Zoë O'Brien", "Łukasz Żółć"])
        #expect(file.rows.map(\.code.value) == ["K3X9PQ2M", "4711001", "4711002"])
        #expect(file.rows.map(\.line) == [2, 3, 6], "rows keep the numbers the organizer sees in the spreadsheet")
        #expect(file.rows.map(\.company) == ["ACME", "", "FJORD AS"])
        #expect(file.rows.map(\.accessType) == ["Conference", "Conference", "Workshop"])
        #expect(file.rows.map(\.revoked) == [false, true, true])
        #expect(file.rows.map(\.facts.orderCode) == ["A1B2C", "A1B2C", "D4E5F"])
        #expect(file.rows[0].facts.attention == "Hand out the VIP lanyard")
        #expect(file.rows[1].facts.attention == "Requires special attention")
        #expect(file.rows[0].facts.validFrom == (try wallClock("2026-11-24 08:30")), "a date-styled number is a date in the event's time zone")
        #expect(file.rows[2].facts.validFrom == (try wallClock("2026-11-25")), "Excel's built-in short date, a whole day")
        #expect(file.rows[1].facts.validFrom == nil)
        #expect(file.rejected.count == 1)
        #expect(file.rejected.first?.line == 5)
        #expect(file.rejected.first?.reason.contains("e-mail address \"not-an-address\" is not valid") == true)
        #expect(file.warnings.isEmpty)
    }

    @Test func aWorkbookIsRecognisedByItsContentWhateverItsName() throws {
        let directory = TemporaryDirectory("xlsx")
        defer { directory.remove() }
        let file = try RosterFileReader.parse(try write(Self.pretixCheckInList, named: "export.csv", in: directory))
        #expect(file.source == "Excel workbook, sheet \"Attendees\"")
        #expect(file.rows.count == 3)
        let data = try Data(contentsOf: directory.appending("export.csv"))
        #expect(try RosterWorkbook.parse(data, options: Self.options).rows.count == 3, "a workbook in memory reads the same")
    }

    @Test func theFirstSheetIsFoundThroughTheWorkbookWhateverItsFileIsCalled() throws {
        let directory = TemporaryDirectory("xlsx")
        defer { directory.remove() }
        let guests: [(number: Int, cells: [WorkbookCell?])] = [(1, [.shared("Code"), .shared("Name")]), (2, [.shared("G1"), .shared("Ann Lee")])]
        let other: [(number: Int, cells: [WorkbookCell?])] = [(1, [.shared("Code"), .shared("Name")]), (2, [.shared("OLD1"), .shared("Not Me")])]
        let reordered = WorkbookFixture(sheets: [
            .init(name: "Guests", path: "xl/worksheets/sheet7.xml", rows: guests),
            .init(name: "Old list", path: "xl/worksheets/sheet1.xml", rows: other),
        ])
        let file = try RosterFileReader.parse(try write(reordered, in: directory))
        #expect(file.source == "Excel workbook, sheet \"Guests\"")
        #expect(file.rows.map(\.code.value) == ["G1"])

        let hiddenFirst = WorkbookFixture(sheets: [
            .init(name: "Lookup", path: "xl/worksheets/sheet1.xml", hidden: true, rows: other),
            .init(name: "Guests", path: "xl/worksheets/sheet2.xml", rows: guests),
        ])
        let shown = try RosterFileReader.parse(try write(hiddenFirst, named: "hidden.xlsx", in: directory))
        #expect(shown.source == "Excel workbook, sheet \"Guests\"", "a hidden sheet is not the one the organizer sees first")
        #expect(shown.rows.map(\.code.value) == ["G1"])
    }

    @Test func aWorkbookWithoutItsListOfSheetsIsReadFromSheet1AndPrefixedElementsAreUnderstood() throws {
        let directory = TemporaryDirectory("xlsx")
        defer { directory.remove() }
        let url = try writeParts(["xl/worksheets/sheet1.xml": """
            <?xml version="1.0" encoding="UTF-8"?>
            <x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>
            <x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>code</x:t></x:is></x:c><x:c r="B1" t="inlineStr"><x:is><x:t>name</x:t></x:is></x:c></x:row>
            <x:row><x:c t="inlineStr"><x:is><x:t>P1</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t><![CDATA[Ann & Bob]]></x:t></x:is></x:c></x:row>
            </x:sheetData></x:worksheet>
            """], in: directory)
        let file = try RosterFileReader.parse(url)
        #expect(file.source == "Excel workbook")
        #expect(file.rows.map(\.name) == ["Ann & Bob"])
        #expect(file.rows.map(\.line) == [2], "a row without a number follows the one before")
    }

    @Test func aZIPThatIsNoWorkbookIsRefusedWithWhatToSaveItAs() throws {
        let directory = TemporaryDirectory("xlsx")
        defer { directory.remove() }
        let ods = try writeParts(["mimetype": "application/vnd.oasis.opendocument.spreadsheet", "content.xml": "<office:document-content/>"],
                                 named: "roster.ods", in: directory)
        #expect(throws: RosterFileError.notAWorkbook("an OpenDocument file (.ods)")) { try RosterFileReader.parse(ods) }
        let zip = try writeParts(["notes.txt": "hello"], named: "notes.zip", in: directory)
        do {
            _ = try RosterFileReader.parse(zip)
            Issue.record("a ZIP of notes was read as a roster")
        } catch {
            #expect(error == .notAWorkbook("a ZIP archive"))
            #expect(error.description.contains("save it as .xlsx or CSV"), "\(error)")
        }
    }

    @Test func aCutShortWorkbookAndAnOldXlsAreRefusedWithWhatToDo() throws {
        let directory = TemporaryDirectory("xlsx")
        defer { directory.remove() }
        let whole = try Data(contentsOf: try write(Self.pretixCheckInList, in: directory))
        let cut = directory.appending("cut.xlsx")
        try whole.prefix(whole.count / 2).write(to: cut)
        do {
            _ = try RosterFileReader.parse(cut)
            Issue.record("half a workbook was read")
        } catch {
            guard case .damagedWorkbook = error else { Issue.record("\(error)"); return }
            #expect(error.description.contains("save it again as .xlsx or CSV"))
        }
        let xls = directory.appending("old.xls")
        try Data([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1] + [UInt8](repeating: 0, count: 504)).write(to: xls)
        #expect(throws: RosterFileError.legacyExcel) { try RosterFileReader.parse(xls) }
        #expect(RosterFileError.legacyExcel.description.contains("save it as .xlsx (without a password) or CSV"))
    }

    @Test func aSheetThatUnpacksBeyondItsBoundIsRefusedBeforeItIsRead() throws {
        let directory = TemporaryDirectory("xlsx")
        defer { directory.remove() }
        // 3 MB of padding deflates to a few KB: a small ZIP bomb against a 1 MB bound.
        let padding = String(repeating: " ", count: 3 * 1_048_576)
        let url = try writeParts(["xl/worksheets/sheet1.xml": "<worksheet><sheetData>\(padding)</sheetData></worksheet>"], in: directory)
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? .max < 100_000)
        var limits = RosterWorkbook.Limits()
        limits.sheetBytes = 1_048_576
        do {
            _ = try RosterWorkbook.parse(contentsOf: url, limits: limits)
            Issue.record("a sheet beyond its bound was read")
        } catch {
            guard case .workbookPartTooLarge(let part, _, let limit) = error else { Issue.record("\(error)"); return }
            #expect(part == "xl/worksheets/sheet1.xml")
            #expect(limit == 1_048_576)
            #expect(error.description.contains("check that it is the right file"))
        }
        var small = RosterWorkbook.Limits()
        small.fileBytes = 1_000
        #expect(throws: RosterFileError.self) { try RosterWorkbook.parse(contentsOf: url, limits: small) }
    }

    @Test func aSheetThatUnpacksBeyondWhatItsArchiveClaimsIsStoppedAsItGrows() throws {
        let directory = TemporaryDirectory("xlsx")
        defer { directory.remove() }
        let url = try writeParts(["xl/worksheets/sheet1.xml": "<worksheet><sheetData>\(String(repeating: " ", count: 3 * 1_048_576))</sheetData></worksheet>"],
                                 in: directory)
        // The archive says the sheet is 1,000 bytes: in its local header and its central directory.
        var bytes = [UInt8](try Data(contentsOf: url))
        func claim(at offset: Int) { withUnsafeBytes(of: UInt32(1_000).littleEndian) { bytes.replaceSubrange(offset..<offset + 4, with: $0) } }
        #expect(bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]))
        claim(at: 22)
        let central = try #require((0..<bytes.count - 4).first { bytes[$0..<$0 + 4].elementsEqual([0x50, 0x4B, 0x01, 0x02]) })
        claim(at: central + 24)
        try Data(bytes).write(to: url)
        var limits = RosterWorkbook.Limits()
        limits.sheetBytes = 1_048_576
        do {
            _ = try RosterWorkbook.parse(contentsOf: url, limits: limits)
            Issue.record("a sheet beyond its bound was read")
        } catch {
            guard case .workbookPartTooLarge(_, let bytes, _) = error else { Issue.record("\(error)"); return }
            #expect(bytes > 1_048_576, "counted as it unpacked, not taken from the archive")
        }
    }

    @Test func aSheetWithMoreRowsThanAnyRosterIsRefused() throws {
        let directory = TemporaryDirectory("xlsx")
        defer { directory.remove() }
        let rows: [[WorkbookCell?]] = [[.shared("code"), .shared("name")]] + (1...5).map { [.shared("C\($0)"), .shared("Guest \($0)")] }
        let url = try write(WorkbookFixture(rows: rows), in: directory)
        var limits = RosterWorkbook.Limits()
        limits.rows = 3
        #expect(throws: RosterFileError.sheetTooLarge("has more than 3 rows of guests")) { try RosterWorkbook.parse(contentsOf: url, limits: limits) }
        limits.rows = 5
        #expect(try RosterWorkbook.parse(contentsOf: url, limits: limits).rows.count == 5)
    }

    @Test func aSheetWhoseEntitiesExpandABillionTimesIsRefusedQuickly() throws {
        let directory = TemporaryDirectory("xlsx")
        defer { directory.remove() }
        var declarations = "<!ENTITY l0 \"lol\">"
        for level in 1...9 { declarations += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">" }
        let url = try writeParts(["xl/worksheets/sheet1.xml": """
            <?xml version="1.0"?>
            <!DOCTYPE worksheet [\(declarations)]>
            <worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>code</t></is></c><c r="B1" t="inlineStr"><is><t>name</t></is></c></row>
            <row r="2"><c r="A2" t="inlineStr"><is><t>L1</t></is></c><c r="B2" t="inlineStr"><is><t>&l9;</t></is></c></row>
            </sheetData></worksheet>
            """], in: directory)
        let started = ContinuousClock.now
        do {
            let file = try RosterFileReader.parse(url)
            Issue.record("a billion laughs was read: \(file.rows.count) rows, \(file.rejected)")
        } catch {
            guard case .damagedWorkbook = error else { Issue.record("\(error)"); return }
        }
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test func aSheetWithADTDThatFoundationReportsIsRefused() throws {
        let directory = TemporaryDirectory("xlsx")
        defer { directory.remove() }
        let url = try writeParts(["xl/worksheets/sheet1.xml": """
            <?xml version="1.0"?>
            <!DOCTYPE worksheet [<!ELEMENT worksheet ANY>]>
            <worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>code</t></is></c><c r="B1" t="inlineStr"><is><t>name</t></is></c></row>
            </sheetData></worksheet>
            """], in: directory)
        #expect(throws: RosterFileError.damagedWorkbook("it has a DTD, which no spreadsheet program writes")) { try RosterFileReader.parse(url) }
    }

    @Test func cellsShowingAnErrorRejectTheirRowOnlyWhenTheColumnIsRead() throws {
        let directory = TemporaryDirectory("xlsx")
        defer { directory.remove() }
        let url = try write(WorkbookFixture(rows: [
            [.shared("Code"), .shared("Name"), .shared("Price")],
            [.shared("E1"), .error("#N/A"), .number("12.5")],
            [.shared("E2"), .shared("Bo Li"), .error("#DIV/0!")],
            [.shared("E3"), .shared("Cy Ng"), nil, .shared("a note without a header")],
        ]), in: directory)
        let file = try RosterFileReader.parse(url)
        #expect(file.rows.map(\.code.value) == ["E2", "E3"])
        #expect(file.rejected == [RosterRejection(line: 2, reason: "cell B2 shows the error #N/A: correct it in the spreadsheet")])
        #expect(file.ignoredColumns == ["Price"])
        #expect(file.warnings == ["1 row has values right of the header's last column (first: cell D4), which were not read: "
            + "give the column a header to import it."])
    }

    @Test func anEmptySheetOrOneWithoutTicketCodesIsRefusedAsCSVIs() throws {
        let directory = TemporaryDirectory("xlsx")
        defer { directory.remove() }
        let empty = try write(WorkbookFixture(rows: [[nil], [.shared("  ")]]), named: "empty.xlsx", in: directory)
        #expect(throws: RosterFileError.empty) { try RosterFileReader.parse(empty) }
        let noCode = try write(WorkbookFixture(rows: [[], [.shared("Name"), .shared("E-mail")], [.shared("Ann"), .shared("a@example.com")]]),
                               named: "nocode.xlsx", in: directory)
        #expect(throws: RosterFileError.missingColumn("ticket code", header: ["Name", "E-mail"])) { try RosterFileReader.parse(noCode) }
    }

    @Test func excelSerialDatesReadAsWallClockText() {
        #expect(ExcelDate.text(serial: Self.validFromSerial, date1904: false) == "2026-11-24 08:30")
        #expect(ExcelDate.text(serial: 46_351, date1904: false) == "2026-11-25")
        #expect(ExcelDate.text(serial: 46_351 + 1.0 / 86_400 * 3_725, date1904: false) == "2026-11-25 01:02:05")
        #expect(ExcelDate.text(serial: 1, date1904: false) == "1900-01-01")
        #expect(ExcelDate.text(serial: 59, date1904: false) == "1900-02-28")
        #expect(ExcelDate.text(serial: 60, date1904: false) == nil, "Excel's 1900-02-29, a day that never was")
        #expect(ExcelDate.text(serial: 61, date1904: false) == "1900-03-01")
        #expect(ExcelDate.text(serial: 0.75, date1904: false) == "18:00", "a time alone")
        #expect(ExcelDate.text(serial: 0, date1904: true) == "1904-01-01")
        #expect(ExcelDate.text(serial: 44_888.5, date1904: true) == "2026-11-24 12:00")
        #expect(ExcelDate.text(serial: -1, date1904: false) == nil)
        #expect(ExcelDate.text(serial: 2_958_465, date1904: false) == "9999-12-31")
        #expect(ExcelDate.text(serial: 2_958_466, date1904: false) == nil)
    }

    @Test func numberFormatsAreDatesOnlyWhenTheyShowYearsMonthsDaysOrTimes() {
        for id in [14, 15, 22, 45, 47] { #expect(ExcelDate.isDateFormat(id: id, code: nil), "built-in \(id)") }
        for id in [0, 1, 2, 10, 49, 164] { #expect(!ExcelDate.isDateFormat(id: id, code: nil), "built-in \(id)") }
        for code in ["yyyy-mm-dd", "dd.mm.yyyy hh:mm", "[$-407]dd. mmmm yyyy", "h:mm AM/PM", "yyyy\\-mm\\-dd\\ hh:mm", "[Red]d/m/yy"] {
            #expect(ExcelDate.isDateFormat(id: 164, code: code), "\(code)")
        }
        for code in ["0.00", "General", "\"Day\" 0", "#,##0 \"m\"", "0\\d", "[Red]0.00", "0;\"yes\";\"no\"", "@", "_(* #,##0_)"] {
            #expect(!ExcelDate.isDateFormat(id: 164, code: code), "\(code)")
        }
    }

    @Test func cellReferencesNameTheirColumnFromAToXFD() {
        #expect(WorkbookSheetReader.columnIndex("A1") == 0)
        #expect(WorkbookSheetReader.columnIndex("Z99") == 25)
        #expect(WorkbookSheetReader.columnIndex("AA1") == 26)
        #expect(WorkbookSheetReader.columnIndex("XFD1048576") == 16_383)
        #expect(WorkbookSheetReader.columnIndex("XFE1") == nil)
        #expect(WorkbookSheetReader.columnIndex("ABCD1") == nil)
        #expect(WorkbookSheetReader.columnIndex("17") == nil)
        for index in [0, 25, 26, 701, 702, 16_383] {
            #expect(WorkbookSheetReader.columnIndex(WorkbookSheetReader.columnName(index) + "1") == index)
        }
    }

    @Test func aWorkbookOfOneHundredThousandGuestsImportsEveryRow() throws {
        let directory = TemporaryDirectory("xlsx")
        defer { directory.remove() }
        let url = directory.appending("100k.xlsx")
        try Self.largeWorkbook(guests: 100_000).write(to: url)
        let file = try RosterFileReader.parse(url, options: Self.options)
        #expect(file.rejected.isEmpty)
        #expect(file.rows.count == 100_000)
        #expect(file.rows.last?.line == 100_001)
        #expect(file.rows.last?.code.value == "T0099999X")
        #expect(file.rows.last?.facts.validFrom == (try wallClock("2026-11-24 08:30")))
    }

    /// A pretix-like list of `guests` rows, every text a shared string as Excel writes it.
    static func largeWorkbook(guests: Int) -> WorkbookFixture {
        let header: [WorkbookCell?] = ["Order code", "Attendee name", "Product", "Secret", "E-mail", "Company", "Blocked", "Valid from"]
            .map { .shared($0) }
        var rows: [[WorkbookCell?]] = [header]
        rows.reserveCapacity(guests + 1)
        for index in 0..<guests {
            let number = String(index)
            rows.append([.shared("O\(index / 3)"), .shared("Guest Number \(number) Müller"), .shared(index % 10 == 0 ? "VIP" : "Conference"),
                         .shared("T\(String(repeating: "0", count: 7 - number.count))\(number)X"), .shared("guest\(number)@example.com"),
                         index % 4 == 0 ? nil : .shared("Company \(index % 500)"), .boolean(false), .date(validFromSerial)])
        }
        return WorkbookFixture(name: "Attendees", rows: rows)
    }
}
