import CheckInCore

/// Reads a worksheet's XML as it streams past, one `<row>` at a time, into a ``RosterSheet``:
/// the first row with a value is the header, each later row one record, numbered with the row
/// number the organizer sees in the spreadsheet. Nothing but the current row is kept here.
///
/// Cells go where their reference (`r="C7"`) puts them, so an empty cell keeps the columns after
/// it in place. Their values: shared strings (`t="s"`), inline strings (`t="inlineStr"`),
/// formula results (`t="str"`), booleans as TRUE/FALSE, numbers as written (whole numbers
/// without `.0`), and numbers whose style shows a date as wall-clock text (``ExcelDate``).
final class WorkbookSheetReader: WorkbookXMLReader {
    private let strings: SharedStrings
    private let dateStyles: [Bool]
    private let date1904: Bool
    private let limits: RosterWorkbook.Limits
    private let options: RosterSheet.Options

    private(set) var sheet: RosterSheet?
    private var headerWidth = 0
    private var records = 0
    /// Rows with a value right of the header's last column: how many, and the first such cell.
    private var beyondHeader = (rows: 0, first: "")

    // The current row.
    private var rowNumber = 0
    private var fields: [String] = []
    private var rowHasValueBeyondHeader = false
    private var errorCell: (reference: String, value: String)?
    // The current cell.
    private var column = -1
    private var type = ""
    private var style = 0
    private var value = CellText()
    private var inValue = false
    private var inInlineString = false
    private var phoneticDepth = 0

    init(strings: SharedStrings, dateStyles: [Bool], date1904: Bool, limits: RosterWorkbook.Limits, options: RosterSheet.Options) {
        (self.strings, self.dateStyles, self.date1904, self.limits, self.options) = (strings, dateStyles, date1904, limits, options)
    }

    override func start(_ name: Substring, attributes: [String: String]) {
        switch name {
        case "row":
            if let text = attributes["r"] {
                guard let number = Int(text), (1...Self.maximumRow).contains(number) else {
                    return abort(.damagedWorkbook("a row is numbered \"\(text.prefix(20))\""))
                }
                rowNumber = number
            } else {
                rowNumber += 1
            }
            fields.removeAll(keepingCapacity: true)
            rowHasValueBeyondHeader = false
            errorCell = nil
            column = -1
        case "c":
            if let reference = attributes["r"] {
                guard let index = Self.columnIndex(reference) else {
                    return abort(.damagedWorkbook("a cell is named \"\(reference.prefix(20))\""))
                }
                column = index
            } else {
                column += 1
            }
            guard column < limits.columns else { return abort(.sheetTooLarge("has more than \(limits.columns) columns")) }
            type = attributes["t"] ?? "n"
            style = attributes["s"].flatMap(Int.init) ?? 0
            value = CellText()
        case "v": inValue = true
        case "is": inInlineString = true
        case "rPh": phoneticDepth += 1
        case "t": inValue = inInlineString && phoneticDepth == 0
        default: break
        }
    }

    override func text(_ string: String) {
        if inValue { value.append(string) }
    }

    override func end(_ name: Substring) {
        switch name {
        case "v", "t": inValue = false
        case "is": inInlineString = false
        case "rPh": phoneticDepth -= 1
        case "c": endCell()
        case "row": endRow()
        default: break
        }
    }

    private func endCell() {
        let raw = value.text
        let text: String
        switch type {
        case "s":
            guard let index = Int(raw.trimmedWhitespace()), let shared = strings[index] else {
                return abort(.damagedWorkbook("cell \(reference(column)) names shared text \"\(raw.prefix(20))\", which the workbook does not have"))
            }
            text = shared
        case "b": text = raw == "1" ? "TRUE" : raw == "0" ? "FALSE" : raw
        case "e":
            if !raw.isEmpty && errorCell == nil { errorCell = (reference(column), raw) }
            return
        case "n": text = number(raw)
        default: text = raw  // inlineStr, str (a formula's text), d (ISO 8601 date)
        }
        guard !text.isEmpty else { return }
        if sheet != nil && column >= headerWidth {
            if !rowHasValueBeyondHeader {
                rowHasValueBeyondHeader = true
                beyondHeader.rows += 1
                if beyondHeader.first.isEmpty { beyondHeader.first = reference(column) }
            }
            return
        }
        if column >= fields.count { fields.append(contentsOf: repeatElement("", count: column - fields.count + 1)) }
        fields[column] = text
    }

    private func endRow() {
        guard sheet != nil else { return readHeader() }
        if fields.allSatisfy({ $0.trimmedWhitespace().isEmpty }) && errorCell == nil { return }
        records += 1
        guard records <= limits.rows else { return abort(.sheetTooLarge("has more than \(limits.rows) rows of guests")) }
        // Through `sheet?.`: the roster is changed in place, never copied.
        if let errorCell, let index = Self.columnIndex(errorCell.reference), sheet?.reads(field: index) == true {
            sheet?.reject(line: rowNumber, reason: "cell \(errorCell.reference) shows the error \(Sanitized.text(errorCell.value)): correct it in the spreadsheet")
        } else {
            sheet?.add(fields, line: rowNumber)
        }
    }

    private func readHeader() {
        guard let last = fields.lastIndex(where: { !$0.trimmedWhitespace().isEmpty }) else { return }
        do {
            sheet = try RosterSheet(header: Array(fields[...last]), options: options)
            headerWidth = last + 1
        } catch {
            abort(error)
        }
    }

    override func finish() throws(RosterFileError) {
        guard sheet != nil else { throw .empty }
        if beyondHeader.rows > 0 {
            sheet?.warn("\(beyondHeader.rows) row\(beyondHeader.rows == 1 ? " has" : "s have") values right of the header's last column "
                + "(first: cell \(beyondHeader.first)), which were not read: give the column a header to import it.")
        }
    }

    /// A number cell's text: whole numbers without a fraction (Excel writes `12345`, some
    /// writers `12345.0` or `1.2345E4`), others as written; a date when its style shows one.
    private func number(_ raw: String) -> String {
        let raw = raw.trimmedWhitespace()
        guard !raw.isEmpty, let number = Double(raw) else { return raw }
        if dateStyles.indices.contains(style), dateStyles[style], let date = ExcelDate.text(serial: number, date1904: date1904) {
            return date
        }
        if raw.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2D }) { return raw }
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return raw
    }

    /// The cell reference of a column in the current row (`C7`), for messages.
    private func reference(_ column: Int) -> String { Self.columnName(column) + String(rowNumber) }

    /// Excel's last row.
    static let maximumRow = 1_048_576

    /// `C7` → 2, `AA10` → 26; `nil` without letters or past `XFD`, Excel's last column.
    static func columnIndex(_ reference: String) -> Int? {
        var index = 0, letters = 0
        for byte in reference.utf8 {
            switch byte {
            case 0x41...0x5A: index = index * 26 + Int(byte - 0x40)
            case 0x61...0x7A: index = index * 26 + Int(byte - 0x60)
            default:
                guard (0x30...0x39).contains(byte), letters > 0 else { return nil }
                return index <= 16_384 ? index - 1 : nil
            }
            letters += 1
            if letters > 3 { return nil }
        }
        return letters > 0 && index <= 16_384 ? index - 1 : nil
    }

    /// 0 → `A`, 26 → `AA`.
    static func columnName(_ index: Int) -> String {
        var index = index + 1, name = ""
        while index > 0 {
            let remainder = (index - 1) % 26
            name = String(UnicodeScalar(UInt8(65 + remainder))) + name
            index = (index - 1) / 26
        }
        return name
    }
}
