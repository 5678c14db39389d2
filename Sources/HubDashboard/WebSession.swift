import CheckInCore
import HTTPTypes
import HubAPI
import HubServer
import Hummingbird

/// A browser's hub session: the `hub_session` cookie holds the access token of a session
/// created at sign-in exactly as for the API (``StaffSignIn``); the token also keys the
/// session's CSRF tokens (``FormTokens``), so the server keeps nothing besides the session row.
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

    /// This session's form tokens (``FormTokens``).
    var forms: FormTokens { FormTokens(secret: token, sessionID: caller.sessionID) }
}
