import Foundation
// Internal: ZIPFoundation (and its zlib module) stays out of the modules importing this one.
internal import ZIPFoundation

/// A cell as a spreadsheet program writes it into a sheet's XML.
public enum WorkbookCell: Sendable {
    /// Text in the shared strings (how Excel writes text).
    case shared(String)
    /// Text in the cell itself (`t="inlineStr"`, how some exporters write it).
    case inline(String)
    /// Rich text in the shared strings: runs of differently formatted text.
    case richText([String])
    /// A number as written in `<v>`.
    case number(String)
    /// A number shown with a date format (`yyyy-mm-dd hh:mm`, style 1): Excel's serial date.
    case date(Double)
    /// A number shown with Excel's built-in short date format (id 14, style 2).
    case builtInDate(Double)
    case boolean(Bool)
    /// A formula's error result (`#N/A`).
    case error(String)
    /// A formula whose result is text (`t="str"`).
    case formulaText(String)
}

/// Writes `.xlsx` files as spreadsheet programs do — [Content_Types].xml, the workbook and its
/// relationships, shared strings, styles and the sheets — for tests of roster imports. Cells
/// carry their `r` reference; a `nil` cell is left out, as programs leave out empty cells.
public struct WorkbookFixture: Sendable {
    public struct Sheet: Sendable {
        public var name: String
        /// The sheet's file in the archive, e.g. `xl/worksheets/sheet3.xml`.
        public var path: String
        public var hidden: Bool
        /// Rows by their number in the sheet.
        public var rows: [(number: Int, cells: [WorkbookCell?])]

        public init(name: String, path: String, hidden: Bool = false, rows: [(number: Int, cells: [WorkbookCell?])]) {
            (self.name, self.path, self.hidden, self.rows) = (name, path, hidden, rows)
        }
    }

    /// In tab order: the first is what a roster import reads.
    public var sheets: [Sheet]

    public init(sheets: [Sheet]) { self.sheets = sheets }

    /// One sheet, its rows numbered from 1.
    public init(name: String = "Sheet1", rows: [[WorkbookCell?]]) {
        sheets = [Sheet(name: name, path: "xl/worksheets/sheet1.xml", rows: rows.enumerated().map { ($0.offset + 1, $0.element) })]
    }

    public func write(to url: URL) throws {
        try? FileManager.default.removeItem(at: url)
        let archive = try Archive(url: url, accessMode: .create)
        var strings = SharedStringTable()
        let sheetXML = sheets.map { Self.sheetXML($0, strings: &strings) }
        try Self.add("[Content_Types].xml", contentTypes, to: archive)
        try Self.add("_rels/.rels", """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
            <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>\
            </Relationships>
            """, to: archive)
        try Self.add("xl/workbook.xml", workbook, to: archive)
        try Self.add("xl/_rels/workbook.xml.rels", relationships, to: archive)
        try Self.add("xl/styles.xml", Self.styles, to: archive)
        for (sheet, xml) in zip(sheets, sheetXML) { try Self.add(sheet.path, xml, to: archive) }
        try Self.add("xl/sharedStrings.xml", strings.xml, to: archive)
    }

    /// A ZIP of the given parts as they are (deflated), for archives no spreadsheet program would write.
    public static func writeParts(_ parts: [String: String], to url: URL) throws {
        try? FileManager.default.removeItem(at: url)
        let archive = try Archive(url: url, accessMode: .create)
        for (path, text) in parts.sorted(by: { $0.key < $1.key }) { try add(path, text, to: archive) }
    }

    /// Adds a part, deflated, from its text.
    static func add(_ path: String, _ text: String, to archive: Archive) throws {
        let data = Data(text.utf8)
        try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
    }

    private var contentTypes: String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">\
        <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>\
        <Default Extension="xml" ContentType="application/xml"/>\
        <Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>\
        \(sheets.map { "<Override PartName=\"/\($0.path)\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml\"/>" }.joined())\
        <Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>\
        <Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>\
        </Types>
        """
    }

    private var workbook: String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" \
        xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><workbookPr/><sheets>\
        \(sheets.enumerated().map { index, sheet in
            "<sheet name=\"\(Self.escape(sheet.name))\" sheetId=\"\(index + 1)\"\(sheet.hidden ? " state=\"hidden\"" : "") r:id=\"rId\(index + 3)\"/>"
        }.joined())</sheets></workbook>
        """
    }

    private var relationships: String {
        let base = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
        return """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
            <Relationship Id="rId1" Type="\(base)/styles" Target="styles.xml"/>\
            <Relationship Id="rId2" Type="\(base)/sharedStrings" Target="sharedStrings.xml"/>\
            \(sheets.enumerated().map { index, sheet in
                "<Relationship Id=\"rId\(index + 3)\" Type=\"\(base)/worksheet\" Target=\"/\(sheet.path)\"/>"
            }.joined())</Relationships>
            """
    }

    /// Style 0: General; 1: a custom date-and-time format (id 164); 2: Excel's built-in short date (id 14).
    static let styles = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">\
        <numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd\\ hh:mm"/></numFmts>\
        <fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>\
        <fills count="1"><fill><patternFill patternType="none"/></fill></fills>\
        <borders count="1"><border/></borders>\
        <cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>\
        <cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>\
        <xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>\
        <xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>\
        </styleSheet>
        """

    static func sheetXML(_ sheet: Sheet, strings: inout SharedStringTable) -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" \
            xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheetData>
            """
        for row in sheet.rows {
            xml += "<row r=\"\(row.number)\">"
            for (index, cell) in row.cells.enumerated() {
                guard let cell else { continue }
                let reference = columnName(index) + String(row.number)
                switch cell {
                case .shared(let text): xml += "<c r=\"\(reference)\" t=\"s\"><v>\(strings.index(of: text))</v></c>"
                case .richText(let runs): xml += "<c r=\"\(reference)\" t=\"s\"><v>\(strings.index(ofRuns: runs))</v></c>"
                case .inline(let text): xml += "<c r=\"\(reference)\" t=\"inlineStr\"><is><t>\(escape(text))</t></is></c>"
                case .number(let value): xml += "<c r=\"\(reference)\"><v>\(value)</v></c>"
                case .date(let serial): xml += "<c r=\"\(reference)\" s=\"1\"><v>\(serial)</v></c>"
                case .builtInDate(let serial): xml += "<c r=\"\(reference)\" s=\"2\"><v>\(serial)</v></c>"
                case .boolean(let value): xml += "<c r=\"\(reference)\" t=\"b\"><v>\(value ? 1 : 0)</v></c>"
                case .error(let value): xml += "<c r=\"\(reference)\" t=\"e\"><f>VLOOKUP(A1,X:Y,2,0)</f><v>\(escape(value))</v></c>"
                case .formulaText(let value): xml += "<c r=\"\(reference)\" t=\"str\"><f>UPPER(A1)</f><v>\(escape(value))</v></c>"
                }
            }
            xml += "</row>\n"
        }
        return xml + "</sheetData></worksheet>"
    }

    /// The shared strings as Excel keeps them: each distinct text once, cells naming its index.
    public struct SharedStringTable {
        private var indexes: [String: Int] = [:]
        private var items: [String] = []

        public init() {}

        public mutating func index(of text: String) -> Int { add(key: text, item: "<si><t xml:space=\"preserve\">\(escape(text))</t></si>") }

        /// Rich text: each run with its own formatting, and a phonetic guide that is not part of the text.
        mutating func index(ofRuns runs: [String]) -> Int {
            let body = runs.map { "<r><rPr><b/></rPr><t xml:space=\"preserve\">\(escape($0))</t></r>" }.joined()
            return add(key: "\u{1}" + runs.joined(), item: "<si>\(body)<rPh sb=\"0\" eb=\"1\"><t>ふりがな</t></rPh></si>")
        }

        private mutating func add(key: String, item: String) -> Int {
            if let index = indexes[key] { return index }
            indexes[key] = items.count
            items.append(item)
            return items.count - 1
        }

        public var xml: String {
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="\(items.count)" uniqueCount="\(items.count)">\
            \(items.joined())</sst>
            """
        }
    }

    /// 0 → `A`, 26 → `AA`.
    public static func columnName(_ index: Int) -> String {
        var index = index + 1, name = ""
        while index > 0 {
            name = String(UnicodeScalar(UInt8(65 + (index - 1) % 26))) + name
            index = (index - 1) / 26
        }
        return name
    }

    public static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
