import CheckInCore
import HubAPI
import Hummingbird
import Logging

/// The hub's one authorization layer: every route but health, sign-in and refresh sits in a
/// group behind this middleware, which authenticates the bearer token, applies the per-session
/// rate limit, resolves `:event` to an event the caller may see, and decides with
/// ``RouteAccess``. Handlers read the outcome from ``HubRequestContext`` and check nothing.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = HubRequestContext

    let access: RouteAccess
    let sessions: any SessionRepository
    let events: any EventRepository
    let limiter: RateLimiter
    let metrics: HubMetrics
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        do {
            let caller = try await authenticate(request)
            if let caller, let wait = limiter.take(caller.sessionID) {
                var problem = HubProblem(.tooManyRequests, "Too many requests", detail: "Slow down; retry after \(wait) s.")
                problem.retryAfterSeconds = wait
                throw problem
            }
            var event: EventSummary?
            if access.eventScoped, let caller, let id = context.parameters.get("event") {
                event = try await events.event(id: id, visibleTo: caller.staff)
            }
            switch access.decide(caller: caller?.staff.role, eventVisible: event != nil) {
            case .allow: break
            case .unauthenticated: throw HubProblem.unauthenticated
            case .notFound: throw HubProblem.notFound
            case .forbidden(let role): throw HubProblem.forbidden(role)
            }
            context.caller = caller
            context.event = event
        } catch {
            let problem = HubProblem.answering(error, route: "access", logger: logger)
            metrics.request(route: "access", status: problem.status.code, seconds: nil)
            return try problem.response(from: request, context: context)
        }
        return try await next(request, context)
    }

    /// The live session behind the request's bearer token, or `nil`.
    func authenticate(_ request: Request) async throws -> AuthenticatedSession? {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return nil }
        let token = String(header.dropFirst("Bearer ".count))
        return try await sessions.session(accessHash: Tokens.hash(token), now: .now())
    }
}
