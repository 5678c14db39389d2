import Mustache

/// The dashboard's templates and static files, embedded at build time by `EmbedWebAssetsPlugin`
/// from `Web/Assets/` (``embeddedWebAssets``): an installed hub serves exactly the pages it was
/// built with, and never reads a template from disk.
enum WebAssets {
    /// Templates by name: `templates/events.mustache` is `events`, and a partial `{{> layout-head}}`
    /// names `templates/layout-head.mustache`.
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        for (path, text) in embeddedWebAssets where path.hasPrefix("templates/") && path.hasSuffix(".mustache") {
            let name = String(path.dropFirst("templates/".count).dropLast(".mustache".count))
            do {
                try library.register(text, named: name)
            } catch {
                // A template that does not parse is a build defect, caught by WebAssetsTests.
                preconditionFailure("dashboard template \(path) does not parse: \(error)")
            }
        }
        return library
    }()

    /// Whether a template of that name was embedded (and parsed).
    static func hasTemplate(_ name: String) -> Bool { library.getTemplate(named: name) != nil }

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
        guard let html = library.render(page, withTemplate: template) else {
            preconditionFailure("no dashboard template named \(template)")
        }
        return html
    }
}
