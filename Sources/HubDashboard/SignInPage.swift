import CheckInCore
import HTTPTypes
import HubAPI
import HubServer
import Hummingbird
import Logging

/// `GET|POST /signin` and `POST /signout`: the dashboard's session cookie from the same accounts,
/// throttles and sessions as the API's sign-in (``StaffSignIn``).
///
/// The sign-in form has its own CSRF token, keyed by a random `hub_signin` cookie set with the
/// form (a login CSRF would sign a victim's browser into the attacker's account).
struct SignInPage {
    let site: WebSite
    let sessions: any SessionRepository
    let signIn: StaffSignIn

    struct Model {
        var title = "Sign in"
        var formToken: String
        var next: String
        var email: String
        var error: String?
    }

    func addOpen(to group: RouterGroup<HubRequestContext>) {
        group.get(RouterPath(WebRoutes.signIn), use: { request, context in
            if try await WebSession.find(request, sessions: sessions) != nil {
                return WebResponse.redirect(to: WebResponse.localPath(request.uri.queryParameters.get("next")) ?? WebRoutes.home)
            }
            return form(request, context, next: request.uri.queryParameters.get("next"), email: "", error: nil, status: .ok)
        })
        group.post(RouterPath(WebRoutes.signIn), use: { request, context in
            var request = request
            let form = try await WebForm.read(&request)
            let secret = request.cookies[WebCookies.signIn]?.value ?? ""
            guard !secret.isEmpty, CSRFToken.verify(form[WebForm.csrfField], secret: secret, purpose: "signin") else {
                site.logger.notice("dashboard sign-in refused: no valid CSRF token")
                return WebResponse.problem(.forbidden, "Form refused", "The sign-in form had no valid security token. Open the sign-in page again.")
            }
            let email = form["email"] ?? "", password = form["password"] ?? ""
            let next = form["next"]
            do {
                try SignInBounds.check(SignInRequest(email: email, password: password))
            } catch let problem as HubProblem {
                return self.form(request, context, next: next, email: email, error: problem.document.detail ?? problem.document.title, status: .unprocessableContent)
            }
            let client = ClientAddress.resolve(
                peer: context.peerAddress, forwardedFor: request.headers[.xForwardedFor], trustedProxies: site.configuration.trustedProxies)
            let outcome: StaffSignIn.Outcome
            do {
                outcome = try await signIn
                    .signIn(email: email, password: password, client: client, deviceProof: request.cookies[DeviceProof.cookie]?.value,
                            accessSeconds: WebCookies.sessionSeconds, sessionSeconds: WebCookies.sessionSeconds)
            } catch let problem as HubProblem where problem.status == .unauthorized || problem.status == .tooManyRequests {
                let words = problem.status == .unauthorized ? "Wrong e-mail or password." : "Too many attempts. " + (problem.document.detail ?? "")
                var response = self.form(request, context, next: next, email: email, error: words, status: problem.status)
                if let wait = problem.retryAfterSeconds { response.headers[.retryAfter] = String(wait) }
                return response
            }
            let secure = WebRoutes.isSecure(site, request, context)
            var response = WebResponse.redirect(to: WebResponse.localPath(next) ?? WebRoutes.home)
            let lifetime = Int(max(0, outcome.session.tokens.accessExpires.milliseconds - Timestamp.now().milliseconds) / 1000)
            response.setCookie(WebCookies.make(WebCookies.session, value: outcome.accessToken, maxAge: lifetime, secure: secure))
            response.setCookie(WebCookies.expired(WebCookies.signIn, secure: secure))
            // This browser is known to the account from now on: others' guesses do not hold it back.
            response.setCookie(WebCookies.make(DeviceProof.cookie, value: outcome.deviceProof, maxAge: DeviceProof.cookieSeconds, secure: secure))
            return response
        })
    }

    func addSignedIn(to group: RouterGroup<HubRequestContext>) {
        // The CSRF token was checked by WebAccessMiddleware.
        group.post(RouterPath(WebRoutes.signOut), use: { request, context in
            let caller = try context.requireCaller()
            _ = try await sessions.revokeSession(id: caller.sessionID, now: .now())
            site.logger.info("signed out", metadata: ["session": "\(caller.sessionID)"])
            var response = WebResponse.redirect(to: WebRoutes.signIn)
            response.setCookie(WebCookies.expired(WebCookies.session, secure: WebRoutes.isSecure(site, request, context)))
            return response
        })
    }

    /// The form with its token for the browser's `hub_signin` secret: the one it has (every tab of
    /// the browser goes to the sign-in page at once when its session ends, and each must still
    /// sign in), or a fresh one.
    private func form(_ request: Request, _ context: HubRequestContext, next: String?, email: String, error: String?,
                      status: HTTPResponse.Status) -> Response {
        let secret = request.cookies[WebCookies.signIn].flatMap { Self.keptSecret($0.value) } ?? Tokens.token()
        let model = Model(formToken: CSRFToken.make(secret: secret, purpose: "signin"), next: WebResponse.localPath(next) ?? "",
                          email: email, error: error)
        var response = WebResponse.html(WebAssets.render("signin", model), status: status)
        response.setCookie(WebCookies.make(WebCookies.signIn, value: secret, maxAge: WebCookies.signInFormSeconds, secure: WebRoutes.isSecure(site, request, context)))
        return response
    }

    /// A `hub_signin` secret as this hub makes them (``Tokens/token()``: 43 base64url
    /// characters), or `nil` for anything else, which gets a fresh one.
    static func keptSecret(_ value: String) -> String? {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        return value.count == 43 && value.allSatisfy(alphabet.contains) ? value : nil
    }
}
