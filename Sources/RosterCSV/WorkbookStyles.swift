/// Reads `xl/styles.xml` for the one thing a roster needs from it: which cell styles show
/// numbers as dates. A cell's `s` attribute indexes `<cellXfs>`; each `<xf>` names a number
/// format, built in or defined in `<numFmts>`.
final class StylesReader: WorkbookXMLReader {
    /// Excel's own bound on a workbook's cell styles; more are ignored (read as plain numbers).
    static let maximumStyles = 65_536

    private var formatCodes: [Int: String] = [:]
    private var styleFormats: [Int] = []
    private var inCellStyles = false

    /// Per cell style index: whether it shows a date. Complete after ``finish()``.
    private(set) var dateStyles: [Bool] = []

    override func start(_ name: Substring, attributes: [String: String]) {
        switch name {
        case "numFmt":
            if let id = attributes["numFmtId"].flatMap(Int.init), let code = attributes["formatCode"], formatCodes.count < Self.maximumStyles {
                formatCodes[id] = code
            }
        case "cellXfs": inCellStyles = true
        case "xf" where inCellStyles && styleFormats.count < Self.maximumStyles:
            styleFormats.append(attributes["numFmtId"].flatMap(Int.init) ?? 0)
        default: break
        }
    }

    override func end(_ name: Substring) {
        if name == "cellXfs" { inCellStyles = false }
    }

    override func finish() throws(RosterFileError) {
        dateStyles = styleFormats.map { ExcelDate.isDateFormat(id: $0, code: formatCodes[$0]) }
    }
}
