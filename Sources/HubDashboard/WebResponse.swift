import HTTPTypes
import HubServer
import Hummingbird
import NIOCore

/// How the dashboard answers: HTML pages with headers that keep them out of frames, caches and
/// other origins' reach, and redirects after a form.
enum WebResponse {
    /// Scripts and styles only from the hub itself (no inline script), no framing, forms only to the hub.
    static let contentSecurityPolicy = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"

    static func html(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: pageHeaders(contentType: "text/html; charset=utf-8"), body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    static func pageHeaders(contentType: String) -> HTTPFields {
        [
            .contentType: contentType,
            .cacheControl: "no-store",
            .contentSecurityPolicy: contentSecurityPolicy,
            .xContentTypeOptions: "nosniff",
            .referrerPolicy: "same-origin",
        ]
    }

    /// 303 See Other: after a form post the browser GETs `location`.
    static func redirect(to location: String) -> Response {
        var headers = pageHeaders(contentType: "text/plain; charset=utf-8")
        headers[.location] = location
        return Response(status: .seeOther, headers: headers)
    }

    /// An error page in words (404 for an event the caller may not see, 403 for a refused form…).
    static func problem(_ status: HTTPResponse.Status, _ title: String, _ detail: String) -> Response {
        html(WebAssets.render("problem", ProblemPage(title: title, detail: detail, status: status.code)), status: status)
    }

    struct ProblemPage {
        var title: String
        var detail: String
        var status: Int
    }

    /// A path on this hub to go back to after sign-in, or `nil` for anything else (another
    /// host, `//host`, a scheme): the sign-in form is no open redirect.
    static func localPath(_ path: String?) -> String? {
        guard let path, path.hasPrefix("/"), !path.hasPrefix("//"), !path.contains("\\"), path.utf8.count <= 512,
              path.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else { return nil }
        return path
    }
}

extension HTTPField.Name {
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
