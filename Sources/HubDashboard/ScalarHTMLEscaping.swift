import HubServer
import Mustache

/// HTML escaping that holds for every string: `&`, `<`, `>`, `"` and `'` are replaced wherever
/// they occur, found as UTF-8 bytes.
///
/// swift-mustache's own HTML escaping (2.1.1, `String.htmlEscape`) looks each Swift `Character`
/// up in a table of those five. A `Character` is a grapheme cluster, so `"\u{0600}<"` (a Prepend
/// character and `<`) or `"\"\u{0301}"` (`"` and a combining mark) is a cluster that is not in the
/// table, and its `<` or `"` was copied out raw: any text from a roster, a station or a link could
/// open an element or close an attribute (security review F1). In UTF-8 these five are single
/// bytes below 0x80, which never occur inside another scalar's encoding, so replacing those bytes
/// escapes them however the text around them clusters.
///
/// Registered with the library as the content type ``name``; ``WebTemplates`` puts it at the
/// head of every template.
struct ScalarHTMLEscaping: MustacheContentType {
    /// The `CONTENT_TYPE` pragma's value for this escaping.
    static let name = "HTML_SCALARS"

    func escapeText(_ text: String) -> String { Self.escape(text) }

    static func escape(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): bytes += Array("&amp;".utf8)
            case UInt8(ascii: "<"): bytes += Array("&lt;".utf8)
            case UInt8(ascii: ">"): bytes += Array("&gt;".utf8)
            case UInt8(ascii: "\""): bytes += Array("&quot;".utf8)
            case UInt8(ascii: "'"): bytes += Array("&#39;".utf8)
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Registers the content type with the library (once per process), before any template
    /// naming it is parsed: the parser looks the pragma's value up.
    static let registered: Void = MustacheContentTypes.register(ScalarHTMLEscaping(), named: name)
}
