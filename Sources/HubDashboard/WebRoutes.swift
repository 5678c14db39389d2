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
