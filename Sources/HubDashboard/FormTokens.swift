import Foundation
import HubAPI
import HubServer
import Hummingbird

/// The CSRF tokens of one session's forms, each bound to where its form posts (security review
/// F6): the token's purpose is the session and `POST` with the action's path, so a token taken
/// from one form (as markup injected into a page could adopt the page's own) is refused by every
/// other. Computed from the session's cookie (``CSRFToken``), never kept anywhere.
///
/// Not part of a page's model (a template reads every stored property): pages hand their
/// templates ``PostForm`` values instead.
struct FormTokens: Sendable {
    private let secret: String
    private let sessionID: String

    init(secret: String, sessionID: String) {
        self.secret = secret
        self.sessionID = sessionID
    }

    /// The tokens of `caller`'s session, from the request's cookie (which ``WebAccessMiddleware``
    /// has already checked): no second lookup.
    init(_ request: Request, _ caller: AuthenticatedSession) {
        self.init(secret: request.cookies[WebCookies.session]?.value ?? "", sessionID: caller.sessionID)
    }

    /// A form posting to `action` (a path on this hub), with its token.
    func form(_ action: String) -> PostForm {
        PostForm(action: action, csrf: CSRFToken.make(secret: secret, purpose: Self.purpose(sessionID, action)))
    }

    /// Whether `presented` is the token of this session's form posting to `path`.
    func verifies(_ presented: String?, path: String) -> Bool {
        CSRFToken.verify(presented, secret: secret, purpose: Self.purpose(sessionID, path))
    }

    /// The session and where the form posts; the path percent-decoded, so the action as a page
    /// writes it and the path as the browser sends it agree.
    static func purpose(_ sessionID: String, _ path: String) -> String {
        let path = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? path
        return "session:\(sessionID)\u{0}POST \(path.removingPercentEncoding ?? path)"
    }
}

/// One form of a page: where it posts and the token bound to that, given to a template together
/// so that a form cannot carry another form's token (`action="{{save.action}}"`,
/// `value="{{save.csrf}}"`).
struct PostForm: Sendable {
    var action: String
    var csrf: String
}
