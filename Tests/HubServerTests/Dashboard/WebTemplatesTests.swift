import Foundation
import Mustache
import Testing
@testable import HubDashboard
@testable import HubServer

/// The dashboard's escaping (security review F1), in process: per Unicode scalar for every
/// character class the review names, in text and attribute context, through sections, inverted
/// sections, lists and partials; and a template that could bypass it is refused.
struct WebTemplatesTests {
    /// A model with one value, a list of it and a nested value, for the probe templates.
    struct Probe {
        var v: String
        var list: [String]
        var nested: Nested
        var empty: [String] = []
        struct Nested { var v: String }

        init(_ v: String) {
            self.v = v
            list = [v, v]
            nested = Nested(v: v)
        }
    }

    /// Every way a template shows a value; `part` is a partial, reached inside a section too.
    static let probes: [(name: String, text: String)] = [
        ("page", #"<p title="{{v}}" data-x='{{v}}'>{{v}}</p>{{#list}}<i title="{{.}}">{{.}}</i>{{/list}}{{^empty}}<u>{{v}}</u>{{/empty}}"#
            + #"{{#nested}}<b title="{{v}}">{{v}}</b>{{> part}}{{/nested}}{{> part}}"#),
        ("part", #"<s title="{{v}}">{{v}}</s>{{#list}}<q>{{.}}</q>{{/list}}"#),
    ]

    /// How often `character` occurs in `html`.
    static func count(_ character: Unicode.Scalar, _ html: String) -> Int { html.unicodeScalars.filter { $0 == character }.count }

    /// How often `needle` occurs in `text`, byte for byte: Foundation's string search on Linux
    /// compares grapheme clusters, and would miss `&gt;` before a combining mark (the same bug).
    static func occurrences(of needle: String, in text: String) -> Int {
        let needle = Array(needle.utf8), bytes = Array(text.utf8)
        guard !needle.isEmpty, bytes.count >= needle.count else { return 0 }
        return (0...(bytes.count - needle.count)).filter { bytes[$0..<$0 + needle.count].elementsEqual(needle) }.count
    }

    /// `text` with the five entities replaced back, byte for byte.
    static func unescape(_ text: String) -> String {
        var bytes = Array(text.utf8), out: [UInt8] = []
        let entities: [(String, UInt8)] = [("&lt;", UInt8(ascii: "<")), ("&gt;", UInt8(ascii: ">")), ("&quot;", UInt8(ascii: "\"")),
                                           ("&#39;", UInt8(ascii: "'")), ("&amp;", UInt8(ascii: "&"))]
        while !bytes.isEmpty {
            if let (entity, byte) = entities.first(where: { bytes.starts(with: $0.0.utf8) }) {
                out.append(byte)
                bytes.removeFirst(entity.utf8.count)
            } else {
                out.append(bytes.removeFirst())
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test(arguments: HostileText.marks)
    func everyCharacterClassIsTextInEveryWayATemplateShowsAValue(_ mark: HostileText.Mark) throws {
        let templates = try WebTemplates(Self.probes)
        // The page's own markup, and how many times it shows the value: 18.
        let plain = try #require(templates.render("page", Probe("v")))
        #expect(Self.occurrences(of: ">v<", in: plain) + Self.occurrences(of: "\"v\"", in: plain) + Self.occurrences(of: "'v'", in: plain) == 18)
        for value in [HostileText.payload(mark.text), HostileText.short(mark.text), HostileText.email(mark.text, 0) ?? HostileText.payload(mark.text, tag: "e")] + HostileText.reviewClusters {
            let html = try #require(templates.render("page", Probe(value)))
            for character in ["<", ">", "\"", "'"] as [Unicode.Scalar] {
                #expect(Self.count(character, html) == Self.count(character, plain), "\(mark.label): \(character) in \(html)")
            }
            #expect(Self.occurrences(of: ScalarHTMLEscaping.escape(value), in: html) == 18, "\(mark.label): each copy whole, escaped")
        }
    }

    @Test(arguments: HostileText.marks)
    func escapingReplacesTheFiveCharactersWhereverTheyStandAndNothingElse(_ mark: HostileText.Mark) {
        let text = HostileText.payload(mark.text)
        let escaped = ScalarHTMLEscaping.escape(text)
        #expect(!escaped.unicodeScalars.contains { "<>\"'".unicodeScalars.contains($0) })
        #expect(Array(Self.unescape(escaped).unicodeScalars) == Array(text.unicodeScalars), "every other scalar is kept, in order")
    }

    @Test func theReviewsThreeClustersAreEscaped() {
        #expect(ScalarHTMLEscaping.escape("\u{0600}<") == "\u{0600}&lt;")
        #expect(ScalarHTMLEscaping.escape("\"\u{0301}") == "&quot;\u{0301}")
        #expect(ScalarHTMLEscaping.escape("'\u{20E3}") == "&#39;\u{20E3}")
        #expect(ScalarHTMLEscaping.escape("a & <b> \"c\" 'd'") == "a &amp; &lt;b&gt; &quot;c&quot; &#39;d&#39;")
    }

    /// Why every template gets the pragma, partials included: the library's own HTML escaping
    /// works on clusters (the bug reported upstream), and a partial starts again with it whatever
    /// the template that calls it chose. If a new swift-mustache changes either, this says so.
    @Test func thePragmaReachesSectionsButAPartialStartsAgainWithTheLibrarysEscaping() throws {
        _ = ScalarHTMLEscaping.registered
        var library = MustacheLibrary()
        try library.register("{{% CONTENT_TYPE: \(ScalarHTMLEscaping.name) }}<p>{{v}}</p>{{#nested}}<b>{{v}}</b>{{/nested}}{{> bare}}", named: "page")
        try library.register("<s>{{v}}</s>", named: "bare")
        let html = try #require(library.render(Probe("\u{0600}<x-pwn>"), withTemplate: "page"))
        #expect(html.hasPrefix("<p>\u{0600}&lt;x-pwn&gt;</p><b>\u{0600}&lt;x-pwn&gt;</b>"), "the pragma holds in the template and its sections")
        #expect(html.hasSuffix("<s>\u{0600}<x-pwn&gt;</s>"), "the partial used the library's cluster-based escaping: \(html)")
    }

    @Test func everyEmbeddedTemplateIsRegisteredWithTheScalarEscaping() throws {
        let sources = WebAssets.templateSources
        #expect(sources.count >= 16)
        let templates = try WebTemplates(sources)
        for (name, text) in sources {
            #expect(templates.has(name))
            #expect(WebTemplates.unsafeConstructs.allSatisfy { !text.contains($0) }, "\(name)")
        }
    }

    @Test(arguments: [
        "{{% CONTENT_TYPE: HTML }}<p>{{v}}</p>", "{{% CONTENT_TYPE: TEXT }}{{v}}", "<p>{{{v}}}</p>", "<p>{{& v}}</p>", "{{=<% %>=}}<p><%& v %></p>",
    ])
    func aTemplateThatCouldBypassTheEscapingIsRefused(_ text: String) {
        #expect(throws: WebTemplates.Problem.self) { try WebTemplates([(name: "bad", text: text)]) }
    }

    @Test func aTemplateThatDoesNotParseIsRefusedByName() {
        do {
            _ = try WebTemplates([(name: "broken", text: "{{#open}}never closed")])
            Issue.record("a broken template was registered")
        } catch {
            #expect(error.description.contains("broken"))
        }
    }
}
