import Foundation
import HTTPTypes
import HubServer
import Hummingbird

/// The dashboard's cookies: the session cookie (the web session's access token) and the
/// sign-in form's CSRF secret. Both `HttpOnly`, `SameSite=Strict`, `Path=/`, and `Secure` when
/// the browser reached the hub over HTTPS (``WebTransport``).
enum WebCookies {
    static let session = "hub_session"
    static let signIn = "hub_signin"

    /// How long a dashboard session lasts: a working day. There is no refresh: sign in again.
    static let sessionSeconds: Int64 = 12 * 3600
    /// How long a sign-in form stays valid.
    static let signInFormSeconds = 3600

    static func make(_ name: String, value: String, maxAge: Int, secure: Bool) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// A cookie that deletes `name` in the browser.
    static func expired(_ name: String, secure: Bool) -> Cookie {
        Cookie(name: name, value: "", maxAge: 0, path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }
}

/// Whether the browser reached the hub over HTTPS: the hub serves TLS itself (``HubTLS``), or
/// the connection comes from a trusted proxy (``ClientAddress``, `--trusted-proxy`) that says
/// `X-Forwarded-Proto: https`. Anyone else's `X-Forwarded-Proto` is ignored.
enum WebTransport {
    static func isSecure(servesTLS: Bool, peer: String?, forwardedProto: String?, trustedProxies: Set<String>) -> Bool {
        if servesTLS { return true }
        guard let peer, trustedProxies.contains(peer), let forwardedProto else { return false }
        // A chain of proxies appends: the first value is what the client used.
        let first = forwardedProto.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return first == "https"
    }
}

extension HTTPField.Name {
    static let xForwardedProto = HTTPField.Name("X-Forwarded-Proto")!
}
