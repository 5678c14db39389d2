import HubServer
/// The dashboard's templates and static files, embedded at build time by `EmbedWebAssetsPlugin`
/// from `Assets/` (``embeddedWebAssets``): an installed hub serves exactly the pages it was
/// built with, and never reads a template from disk.
enum WebAssets {
    /// Templates by name: `templates/events.mustache` is `events`, and a partial `{{> layout-head}}`
    /// names `templates/layout-head.mustache`. Every value is escaped per Unicode scalar
    /// (``WebTemplates``, ``ScalarHTMLEscaping``).
    static let templates: WebTemplates = {
        do {
            return try WebTemplates(templateSources)
        } catch {
            // A template that does not parse or could bypass the escaping is a build defect, caught by WebTemplatesTests.
            preconditionFailure("\(error)")
        }
    }()

    /// The embedded templates' names and texts.
    static var templateSources: [(name: String, text: String)] {
        embeddedWebAssets.filter { $0.key.hasPrefix("templates/") && $0.key.hasSuffix(".mustache") }.sorted { $0.key < $1.key }.map { path, text in
            (name: String(path.dropFirst("templates/".count).dropLast(".mustache".count)), text: text)
        }
    }

    /// Whether a template of that name was embedded (and parsed).
    static func hasTemplate(_ name: String) -> Bool { templates.has(name) }

    /// A static file: its text and content type.
    struct StaticFile: Sendable {
        var text: String
        var contentType: String
    }

    /// `static/NAME` files, served at `/static/NAME`.
    static let staticFiles: [String: StaticFile] = {
        var files: [String: StaticFile] = [:]
        for (path, text) in embeddedWebAssets where path.hasPrefix("static/") {
            let name = String(path.dropFirst("static/".count))
            files[name] = StaticFile(text: text, contentType: contentType(of: name))
        }
        return files
    }()

    static func contentType(of name: String) -> String {
        if name.hasSuffix(".css") { return "text/css; charset=utf-8" }
        if name.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        if name.hasSuffix(".svg") { return "image/svg+xml" }
        return "text/plain; charset=utf-8"
    }

    /// Renders `template` with `page` (a value whose stored properties the template names).
    static func render(_ template: String, _ page: Any) -> String {
        guard let html = templates.render(template, page) else {
            preconditionFailure("no dashboard template named \(template)")
        }
        return html
    }
}
