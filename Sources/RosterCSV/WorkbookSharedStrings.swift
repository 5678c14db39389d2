/// The workbook's shared strings (`xl/sharedStrings.xml`): the text of most cells, which cells
/// name by index, so they are read whole before the sheet. Kept as one UTF-8 buffer and the end
/// of each string in it: 300,000 names and e-mails take a few megabytes instead of a String each.
struct SharedStrings: Sendable {
    private var bytes: [UInt8] = []
    private var ends: [UInt32] = []  // the part is bounded far below 4 GB

    var count: Int { ends.count }

    subscript(index: Int) -> String? {
        guard ends.indices.contains(index) else { return nil }
        let start = index == 0 ? 0 : Int(ends[index - 1])
        return String(decoding: bytes[start..<Int(ends[index])], as: UTF8.self)
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        ends.append(UInt32(clamping: bytes.count))
    }
}

/// Reads `xl/sharedStrings.xml`: each `<si>` is one string, plain (`<t>`) or rich text (the
/// `<t>` of each `<r>` run, joined); phonetic guides (`<rPh>`, furigana) are not part of it.
final class SharedStringsReader: WorkbookXMLReader {
    private(set) var strings = SharedStrings()
    private let limits: RosterWorkbook.Limits
    private var current = CellText()
    private var inItem = false
    private var inText = false
    private var phoneticDepth = 0

    init(limits: RosterWorkbook.Limits) { self.limits = limits }

    override func start(_ name: Substring, attributes: [String: String]) {
        switch name {
        case "si":
            inItem = true
            current = CellText()
        case "rPh": phoneticDepth += 1
        case "t": inText = inItem && phoneticDepth == 0
        default: break
        }
    }

    override func end(_ name: Substring) {
        switch name {
        case "t": inText = false
        case "rPh": phoneticDepth -= 1
        case "si" where inItem:
            inItem = false
            guard strings.count < limits.sharedStrings else {
                return abort(.sheetTooLarge("has more than \(limits.sharedStrings) different texts"))
            }
            strings.append(current.text)
        default: break
        }
    }

    override func text(_ string: String) {
        if inText { current.append(string) }
    }
}

/// A cell's text as the parser hands it over in pieces, kept to Excel's own bound for a cell
/// (32,767 characters): a longer one is no roster field, and a hostile one cannot grow without end.
struct CellText {
    static let maximumUTF8 = 32_767 * 4
    private(set) var text = ""

    mutating func append(_ piece: String) {
        guard text.utf8.count < Self.maximumUTF8 else { return }
        text += piece
    }
}
