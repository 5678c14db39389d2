import Foundation
import KioskTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The dashboard as a browser without a screen sees it, for process tests: cookies kept, forms
/// posted url-encoded, redirects not followed (their `Location` is the answer).
final class DashboardClient: @unchecked Sendable {  // used by one test at a time
    struct Answer {
        var status: Int
        var body: String
        var headers: [String: String]

        var location: String? { headers["location"] }
    }

    let base: String
    private var cookies: [String: String] = [:]
    private let session: URLSession

    init(base: String) {
        self.base = base
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
    }

    func get(_ path: String) async throws -> Answer { try await send("GET", path, body: nil) }

    /// Posts `fields` as a form.
    func post(_ path: String, _ fields: [(String, String)]) async throws -> Answer {
        try await send("POST", path, body: Self.encoded(fields))
    }

    /// Signs in through the sign-in page's form.
    func signIn(_ email: String, _ password: String) async throws {
        let page = try await get("/signin")
        guard let token = Self.token(in: page.body, action: "/signin") else { throw ClusterError("the sign-in page has no form token") }
        let answer = try await post("/signin", [("csrf", token), ("email", email), ("password", password), ("next", "")])
        guard answer.status == 303, answer.location == "/events" else { throw ClusterError("sign-in answered \(answer.status): \(answer.body)") }
    }

    private func send(_ method: String, _ path: String, body: String?) async throws -> Answer {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        }
        if !cookies.isEmpty { request.setValue(cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "), forHTTPHeaderField: "Cookie") }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields { headers[String(describing: name).lowercased()] = String(describing: value) }
        if let line = http.value(forHTTPHeaderField: "Set-Cookie") {
            let pair = line.split(separator: ";")[0].split(separator: "=", maxSplits: 1).map(String.init)
            if pair.count == 2 { cookies[pair[0]] = pair[1].isEmpty ? nil : pair[1] }
        }
        return Answer(status: http.statusCode, body: String(decoding: data, as: UTF8.self), headers: headers)
    }

    static func encoded(_ fields: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
    }

    /// The CSRF token of the page's form that posts to `action` (the first such form).
    static func token(in html: String, action: String) -> String? {
        guard let form = html.range(of: "action=\"\(action)\"") else { return nil }
        let rest = html[form.upperBound...]
        guard let field = rest.range(of: #"name="csrf" value=""#), let end = rest[field.upperBound...].firstIndex(of: "\"") else { return nil }
        // The token must belong to this form, not a later one.
        guard !rest[..<field.lowerBound].contains("</form>") else { return nil }
        return String(rest[field.upperBound..<end])
    }
}

private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
