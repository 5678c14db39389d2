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
        // White space or a full-width sign first, and a part after `;` (security review F11).
        (" =1+1", "' =1+1"), ("\u{00A0}=1+1", "'\u{00A0}=1+1"), ("\u{FF1D}1+1", "'\u{FF1D}1+1"), ("x;=1+1", "x;'=1+1"),
        ("a; b - c", "a; b - c"),
    ])
    func cellsAreQuotedAndFormulasKeptAsText(text: String, cell: String) {
        #expect(CSVWriter.cell(text) == cell)
    }

    @Test func aQuoteWithACombiningMarkIsStillDoubled() {
        #expect(Array(CSVWriter.cell("a\"\u{0301},=1").unicodeScalars) == Array("\"a\"\"\u{0301},=1\"".unicodeScalars))
    }

    @Test func aLineEndsWithCRLF() {
        #expect(CSVWriter.line(["a", "b,c"]) == "a,\"b,c\"\r\n")
    }
}
