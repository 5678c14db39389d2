import CheckInCore
import Foundation
import HTTPTypes
import HubAPI
import HubServer
import Hummingbird
import Logging

enum WebRoutes {
    static let home = "/events"
    static let signIn = "/signin"
    static let signOut = "/signout"

    /// Wraps a page handler: metrics (streams are counted, not timed), and errors as a page in
    /// words (503 for storage, logged), never a JSON problem or a 500.
    static func page(_ site: WebSite, _ route: String, _ handler: @escaping HubRoutes.Handler) -> HubRoutes.Handler {
        { request, context in
            let start = ContinuousClock.now
            let response: Response
            do {
                response = try await handler(request, context)
            } catch {
                let problem = HubProblem.answering(error, route: route, logger: site.logger)
                response = WebResponse.problem(problem.status, problem.document.title, problem.document.detail ?? "")
            }
            let elapsed = ContinuousClock.now - start
            site.metrics.request(route: route, status: response.status.code,
                                seconds: route == "web-live-stream" ? nil : Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds))
            return response
        }
    }

    /// Whether cookies get `Secure` (``WebTransport``).
    static func isSecure(_ site: WebSite, _ request: Request, _ context: HubRequestContext) -> Bool {
        WebTransport.isSecure(servesTLS: site.configuration.tls != nil, peer: context.peerAddress,
                              forwardedProto: request.headers[.xForwardedProto], trustedProxies: site.configuration.trustedProxies)
    }

    /// `value` for a query string.
    static func queryEscaped(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
