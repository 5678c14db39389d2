import Testing
@testable import RosterCSV

/// What an exported CSV cell becomes.
struct CSVWriterTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("Müller, José", "\"Müller, José\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("two\nlines", "\"two\nlines\""),
        ("=1+1", "'=1+1"),
        ("+49 30 1234", "'+49 30 1234"),
        ("-2", "'-2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("=HYPERLINK(\"x\",\"y\")", "\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\""),
        ("", ""),
    ])
    func cellsAreQuotedAndFormulasKeptAsText(text: String, cell: String) {
        #expect(CSVWriter.cell(text) == cell)
    }

    @Test func aLineEndsWithCRLF() {
        #expect(CSVWriter.line(["a", "b,c"]) == "a,\"b,c\"\r\n")
    }
}
