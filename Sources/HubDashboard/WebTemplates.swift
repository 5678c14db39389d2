import HubServer
import Mustache

/// The dashboard's templates as one library, set up so that a template cannot escape text any
/// other way than ``ScalarHTMLEscaping``.
///
/// The `{{% CONTENT_TYPE: … }}` pragma is the library's way to choose an escaping, and it holds
/// for the rest of its template and the sections in it, but a partial starts again with the
/// library's own HTML escaping (`MustacheContext.withPartial`). So every template, partials
/// included, is registered with the pragma put at its head, and a template that could bypass it
/// is refused: one that names a content type itself, writes a value unescaped (`{{{…}}}`,
/// `{{&…}}`), or changes the delimiters (after which neither could be seen).
struct WebTemplates: Sendable {
    /// Why a template was not registered: a build defect, which `WebAssets` stops on.
    enum Problem: Error, CustomStringConvertible {
        case unsafe(template: String, construct: String)
        case doesNotParse(template: String, error: any Error)

        var description: String {
            switch self {
            case .unsafe(let template, let construct):
                "dashboard template \(template) uses \(construct): dashboard templates escape every value with \(ScalarHTMLEscaping.name) and nothing else"
            case .doesNotParse(let template, let error):
                "dashboard template \(template) does not parse: \(error)"
            }
        }
    }

    /// What each template starts with.
    static let pragma = "{{% CONTENT_TYPE: \(ScalarHTMLEscaping.name) }}"

    /// Constructs that would let a value out unescaped, as they are written in a template.
    static let unsafeConstructs = ["CONTENT_TYPE", "{{{", "{{&", "{{="]

    private var library = MustacheLibrary()

    /// - Parameter sources: each template's name (what partials call it) and text.
    /// - Throws: ``Problem`` for the first template that is unsafe or does not parse.
    init(_ sources: [(name: String, text: String)]) throws(Problem) {
        _ = ScalarHTMLEscaping.registered
        for (name, text) in sources {
            if let construct = Self.unsafeConstructs.first(where: text.contains) {
                throw .unsafe(template: name, construct: construct)
            }
            do {
                try library.register(Self.pragma + text, named: name)
            } catch {
                throw .doesNotParse(template: name, error: error)
            }
        }
    }

    func has(_ name: String) -> Bool { library.getTemplate(named: name) != nil }

    /// `template` rendered with `page` (a value whose stored properties the template names), or
    /// `nil` when there is no such template.
    func render(_ template: String, _ page: Any) -> String? {
        library.render(page, withTemplate: template)
    }
}
