/// Where a workbook keeps what a roster needs: the first sheet (the first `<sheet>` of
/// `xl/workbook.xml` that is a worksheet and not hidden, found through its relationship in
/// `xl/_rels/workbook.xml.rels`; `xl/worksheets/sheet1.xml` when those say nothing usable), the
/// shared strings and styles, and whether its dates count from 1904.
struct WorkbookParts {
    var sheet: String
    var sheetName: String?
    var sharedStrings: String?
    var styles: String?
    var date1904 = false

    static let workbook = "xl/workbook.xml"
    static let relationships = "xl/_rels/workbook.xml.rels"
    static let fallbackSheet = "xl/worksheets/sheet1.xml"

    static func locate(in archive: WorkbookArchive, limits: RosterWorkbook.Limits) throws(RosterFileError) -> WorkbookParts {
        guard archive.contains(workbook) else {
            guard archive.contains(fallbackSheet) else { throw .notAWorkbook(describe(archive)) }
            return WorkbookParts(sheet: fallbackSheet, sharedStrings: existing("xl/sharedStrings.xml", in: archive),
                                 styles: existing("xl/styles.xml", in: archive))
        }
        let manifest = WorkbookManifestReader()
        try archive.parse(workbook, limit: limits.otherPartBytes, reader: manifest)
        let links = RelationshipsReader()
        if archive.contains(relationships) { try archive.parse(relationships, limit: limits.otherPartBytes, reader: links) }
        func target(ofType type: String) -> String? {
            links.relationships.first { $0.type.hasSuffix("/" + type) }.flatMap { existing(resolve($0.target), in: archive) }
        }
        // Worksheets in tab order, the shown ones first; a chart sheet has no cells.
        let worksheets = manifest.sheets.compactMap { sheet -> (name: String, path: String, hidden: Bool)? in
            guard let link = links.relationships.first(where: { $0.id == sheet.relationship }), !link.type.hasSuffix("/chartsheet"),
                  let path = existing(resolve(link.target), in: archive) else { return nil }
            return (sheet.name, path, sheet.hidden)
        }
        let chosen = worksheets.first { !$0.hidden } ?? worksheets.first
        guard let sheet = chosen?.path ?? existing(fallbackSheet, in: archive) else {
            throw .damagedWorkbook("it has no worksheet")
        }
        return WorkbookParts(
            sheet: sheet, sheetName: chosen?.name,
            sharedStrings: target(ofType: "sharedStrings") ?? existing("xl/sharedStrings.xml", in: archive),
            styles: target(ofType: "styles") ?? existing("xl/styles.xml", in: archive),
            date1904: manifest.date1904)
    }

    /// A relationship's target as a path in the archive: relative to `xl/`, or absolute from
    /// the archive's root; `..` and `.` resolved.
    static func resolve(_ target: String) -> String {
        var parts: [Substring] = target.hasPrefix("/") ? [] : ["xl"]
        for part in target.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    private static func existing(_ path: String, in archive: WorkbookArchive) -> String? { archive.contains(path) ? path : nil }

    /// What a ZIP archive that is no workbook looks like, for the organizer.
    private static func describe(_ archive: WorkbookArchive) -> String {
        if archive.contains("content.xml") && archive.contains("mimetype") { return "an OpenDocument file (.ods)" }
        if archive.contains("word/document.xml") { return "a Word document" }
        if archive.contains("ppt/presentation.xml") { return "a PowerPoint presentation" }
        return "a ZIP archive"
    }
}

/// Reads `xl/workbook.xml`: its sheets in tab order and the date system.
final class WorkbookManifestReader: WorkbookXMLReader {
    /// More sheets than Excel lets a workbook have are not looked at.
    static let maximumSheets = 10_000
    private(set) var sheets: [(name: String, relationship: String, hidden: Bool)] = []
    private(set) var date1904 = false

    override func start(_ name: Substring, attributes: [String: String]) {
        switch name {
        case "sheet" where sheets.count < Self.maximumSheets:
            guard let relationship = Self.attribute("id", in: attributes) else { return }
            let state = attributes["state"] ?? "visible"
            sheets.append((attributes["name"] ?? "", relationship, state != "visible"))
        case "workbookPr":
            date1904 = ["1", "true"].contains(attributes["date1904"]?.lowercased() ?? "")
        default: break
        }
    }
}

/// Reads a relationships part (`xl/_rels/workbook.xml.rels`): id, type and target of each.
final class RelationshipsReader: WorkbookXMLReader {
    static let maximumRelationships = 10_000
    private(set) var relationships: [(id: String, type: String, target: String)] = []

    override func start(_ name: Substring, attributes: [String: String]) {
        guard name == "Relationship", relationships.count < Self.maximumRelationships,
              let id = attributes["Id"], let target = attributes["Target"] else { return }
        relationships.append((id, attributes["Type"] ?? "", target))
    }
}
