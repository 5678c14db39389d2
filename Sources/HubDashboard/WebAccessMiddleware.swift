import CheckInCore
import HTTPTypes
import HubAPI
import HubServer
import Hummingbird
import Logging

/// The dashboard's access layer, the counterpart of ``AccessMiddleware`` for pages: the session
/// comes from the `hub_session` cookie (``WebCookies``) instead of a bearer token, and the same
/// ``RouteAccess`` decides. A browser without a live session is sent to the sign-in page; an
/// event the caller may not see, existing or not, is a 404 page; a POST without the session's
/// CSRF token for its path (``FormTokens``) is refused with 403 before any handler runs: a form's `csrf`
/// field, or, for a `multipart/form-data` upload (only where ``multipartBytes`` allows one),
/// its `csrf` part.
struct WebAccessMiddleware: RouterMiddleware {
    typealias Context = HubRequestContext

    let site: WebSite
    let sessions: any SessionRepository
    let events: any EventRepository
    /// Requests per second per session (``HubServerConfiguration/rateLimitPerSecond``).
    let limiter: RateLimiter
    let access: RouteAccess
    /// The largest `multipart/form-data` body these routes take (a roster upload); 0 refuses one (415).
    var multipartBytes = 0

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var request = request, context = context
        let session: WebSession
        do {
            guard let found = try await WebSession.find(request, sessions: sessions) else {
                // A page reached without a session comes back after sign-in; a post does not.
                let back = request.method == .get ? WebResponse.localPath(request.uri.string) : nil
                return WebResponse.redirect(to: WebRoutes.signIn + (back.map { "?next=" + WebRoutes.queryEscaped($0) } ?? ""))
            }
            session = found
        } catch {
            return storageTrouble(error)
        }
        if let wait = limiter.take(session.caller.sessionID) {
            var response = WebResponse.problem(.tooManyRequests, "Too many requests", "Slow down; retry after \(wait) s.")
            response.headers[.retryAfter] = String(wait)
            return response
        }
        var event: EventSummary?
        do {
            if access.eventScoped, let id = context.parameters.get("event") {
                event = try await events.event(id: id, visibleTo: session.caller.staff)
            }
        } catch {
            return storageTrouble(error)
        }
        switch access.decide(caller: session.caller.staff.role, eventVisible: event != nil) {
        case .allow: break
        case .unauthenticated: return WebResponse.redirect(to: WebRoutes.signIn)
        case .notFound: return WebResponse.problem(.notFound, "Not found", "There is no such page, or it is not one of your events.")
        case .forbidden(let role): return WebResponse.problem(.forbidden, "Not for your role", "This page needs the \(role.rawValue) role or above.")
        }
        if request.method == .post {
            let presented: String?
            if MultipartForm.isMultipart(contentType: request.headers[.contentType]) {
                guard multipartBytes > 0 else {
                    return WebResponse.problem(.unsupportedMediaType, "Form refused", "This form takes no file.")
                }
                do {
                    // Collected with its bound; the request keeps the body for the handler.
                    let buffer = try await request.collectBody(upTo: multipartBytes)
                    let boundary = MultipartForm.boundary(contentType: request.headers[.contentType])
                    presented = boundary.flatMap { try? MultipartForm(Array(buffer.readableBytesView), boundary: $0) }?[WebForm.csrfField]?.text
                } catch {
                    return WebResponse.problem(.contentTooLarge, "File too large",
                                               "The upload is larger than \(multipartBytes / 1_048_576) MB, more than any roster the hub reads. Nothing was changed.")
                }
            } else {
                do { presented = try await WebForm.read(&request)[WebForm.csrfField] } catch {
                    return WebResponse.problem(.contentTooLarge, "Form too large", "A dashboard form is far smaller.")
                }
            }
            guard session.forms.verifies(presented, path: request.uri.path) else {
                site.logger.notice("dashboard form refused: no valid CSRF token", metadata: ["session": "\(session.caller.sessionID)", "path": "\(request.uri.path)"])
                return WebResponse.problem(.forbidden, "Form refused", "The form had no valid security token. Reload the page and try again.")
            }
        }
        context.caller = session.caller
        context.event = event
        return try await next(request, context)
    }

    private func storageTrouble(_ error: any Error) -> Response {
        site.logger.error("dashboard access failed", metadata: ["error": "\(String(reflecting: error))"])
        return WebResponse.problem(.serviceUnavailable, "Temporarily unavailable", "The hub cannot reach its database. Retry in a moment.")
    }
}
