import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The base of the readers of a workbook's XML parts (sheet, shared strings, styles, workbook,
/// relationships): `XMLParser`'s delegate, passing element names without their namespace
/// prefix (some writers prefix SpreadsheetML's elements, `x:row`), and refusing the DTD
/// declarations the parser reports, which no part of a workbook has. (Foundation on Linux does
/// not report entity declarations; there libxml2's own bound on entity expansion stops a
/// "billion laughs" part, as `RosterXLSXTests` checks.)
///
/// Subclasses override ``start(_:attributes:)``, ``end(_:)``, ``text(_:)`` and ``finish()``.
class WorkbookXMLReader: NSObject, XMLParserDelegate {
    /// The parser while a part is read, so a reader can stop it.
    weak var parser: XMLParser?
    /// Why the reader stopped the parser, if it did.
    private(set) var stop: RosterFileError?

    /// An element begins; `name` without its prefix.
    func start(_ name: Substring, attributes: [String: String]) {}
    /// An element ends.
    func end(_ name: Substring) {}
    /// Text inside the current element (possibly in several pieces).
    func text(_ string: String) {}
    /// The part was read whole: throws what only its end reveals.
    func finish() throws(RosterFileError) {}

    /// Stops the parse; the first reason given is the one reported.
    func abort(_ error: RosterFileError) {
        if stop == nil { stop = error }
        parser?.abortParsing()
    }

    /// The value of an attribute, whatever its namespace prefix (`r:id`, `ns1:id`).
    static func attribute(_ name: String, in attributes: [String: String]) -> String? {
        if let value = attributes[name] { return value }
        return attributes.first { $0.key.hasSuffix(":" + name) }?.value
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
                attributes attributeDict: [String: String]) {
        guard stop == nil else { return }
        start(Self.localName(elementName), attributes: attributeDict)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard stop == nil else { return }
        end(Self.localName(elementName))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard stop == nil else { return }
        text(string)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard stop == nil else { return }
        text(String(decoding: CDATABlock, as: UTF8.self))
    }

    private static let declaration = RosterFileError.damagedWorkbook("it has a DTD, which no spreadsheet program writes")

    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) { abort(Self.declaration) }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        abort(Self.declaration)
    }

    func parser(_ parser: XMLParser, foundUnparsedEntityDeclarationWithName name: String, publicID: String?, systemID: String?,
                notationName: String?) {
        abort(Self.declaration)
    }

    func parser(_ parser: XMLParser, foundElementDeclarationWithName elementName: String, model: String) { abort(Self.declaration) }

    func parser(_ parser: XMLParser, foundAttributeDeclarationWithName attributeName: String, forElement elementName: String, type: String?,
                defaultValue: String?) {
        abort(Self.declaration)
    }

    func parser(_ parser: XMLParser, foundNotationDeclarationWithName name: String, publicID: String?, systemID: String?) {
        abort(Self.declaration)
    }

    /// `x:row` → `row`.
    static func localName(_ qualified: String) -> Substring {
        guard let colon = qualified.lastIndex(of: ":") else { return qualified[...] }
        return qualified[qualified.index(after: colon)...]
    }
}
