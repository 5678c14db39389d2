import Foundation

/// Text built to break out of HTML escaping that works on grapheme clusters (security review
/// F1): every character class the review names, each joined to the five characters HTML
/// escapes, once before (a Prepend character makes `\u{0600}<` one cluster) and once after (a
/// combining or enclosing mark, ZWJ, a variation selector or an emoji modifier makes `"\u{0301}`
/// one). Escaped per Unicode scalar, every payload shows as text; escaped per cluster, the
/// marked ones make an element `<x-pwn>` or an attribute `data-pwn`.
enum HostileText {
    struct Mark: Sendable {
        var label: String
        var text: String
    }

    static let marks: [Mark] = [
        Mark(label: "plain", text: ""),
        Mark(label: "prepend U+0600", text: "\u{0600}"),
        Mark(label: "prepend U+110BD", text: "\u{110BD}"),
        Mark(label: "combining U+0301", text: "\u{0301}"),
        Mark(label: "enclosing U+20E3", text: "\u{20E3}"),
        Mark(label: "spacing mark U+0903", text: "\u{0903}"),
        Mark(label: "ZWJ U+200D", text: "\u{200D}"),
        Mark(label: "ZWJ sequence", text: "\u{200D}\u{1F4BB}"),
        Mark(label: "variation selector U+FE0F", text: "\u{FE0F}"),
        Mark(label: "emoji modifier U+1F3FB", text: "\u{1F3FB}"),
        Mark(label: "bidi override U+202E", text: "\u{202E}"),
        Mark(label: "bidi isolate U+2067", text: "\u{2067}"),
        Mark(label: "C0 U+0001", text: "\u{01}"),
        Mark(label: "C0 escape U+001B", text: "\u{1B}"),
        Mark(label: "C1 U+0085", text: "\u{85}"),
        Mark(label: "C1 CSI U+009B", text: "\u{9B}"),
        Mark(label: "NUL", text: "\u{0}"),
        Mark(label: "full-width U+FF1C", text: "\u{FF1C}"),
    ]

    /// The three clusters the review reproduced with, as they must come back: text.
    static let reviewClusters = ["\u{0600}<", "\"\u{0301}", "'\u{20E3}"]

    /// A tag, double- and single-quoted attribute break-outs and an entity, each special
    /// character with `mark` before and after it: about 60 characters, within every field's limit.
    static func payload(_ mark: String, tag: String = "t") -> String {
        let m = mark
        return "Hx\(m)<x-pwn data-pwn=\"\(tag)\">\(m)\"\(m) data-pwn=\"a\" \(m)'\(m) data-pwn='q' \(m)&lt;"
    }

    /// At most 50 characters (a report's version and part states).
    static func short(_ mark: String) -> String {
        "\(mark)<x-pwn data-pwn=\"v\">\(mark)\"\(mark) data-pwn=\"w\" "
    }

    /// An e-mail address the hub accepts (no white space, one `@`, a dot after it) that carries
    /// a tag and an attribute break-out; `nil` when the mark itself is white space.
    static func email(_ mark: String, _ index: Int) -> String? {
        guard !mark.unicodeScalars.contains(where: \.properties.isWhitespace) else { return nil }
        return "e\(index)\(mark)<x-pwn/data-pwn=e>\(mark)\"\(mark)/data-pwn=f@pwn.example"
    }

    /// What every payload shows when it is text: the tag, literally.
    static let visibleTag = "<x-pwn data-pwn=\"t\">"
}
