import CheckInCore
import HTTPTypes
import HubAPI
import Hummingbird

/// A browser's hub session: the `hub_session` cookie holds the access token of a session
/// created at sign-in exactly as for the API (``StaffSignIn``); the token also keys the
/// session's CSRF token, so the server keeps nothing besides the session row.
struct WebSession: Sendable {
    var caller: AuthenticatedSession
    /// The cookie's token: the CSRF secret, never shown on a page.
    private var token: String

    /// The live session behind the request's cookie, or `nil`.
    static func find(_ request: Request, sessions: any SessionRepository) async throws -> WebSession? {
        guard let token = request.cookies[WebCookies.session]?.value, !token.isEmpty, token.utf8.count <= 128 else { return nil }
        guard let caller = try await sessions.session(accessHash: Tokens.hash(token), now: .now()) else { return nil }
        return WebSession(caller: caller, token: token)
    }

    /// The token every form of this session carries.
    var csrf: String { CSRFToken.make(secret: token, purpose: "session:" + caller.sessionID) }

    func verifies(_ presented: String?) -> Bool {
        CSRFToken.verify(presented, secret: token, purpose: "session:" + caller.sessionID)
    }
}

extension WebSession {
    /// The CSRF token for a page of `caller`'s session, from the request's cookie (which
    /// ``WebAccessMiddleware`` has already checked): no second lookup.
    static func csrf(_ request: Request, _ caller: AuthenticatedSession) -> String {
        CSRFToken.make(secret: request.cookies[WebCookies.session]?.value ?? "", purpose: "session:" + caller.sessionID)
    }
}
