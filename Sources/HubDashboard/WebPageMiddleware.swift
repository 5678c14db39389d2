import HubAPI
import HubServer
import Hummingbird

/// In front of every dashboard page, once: an error any page or its access check throws becomes
/// a page in words (503 for storage, logged), never a JSON problem or a 500; and each request is
/// counted by its route and timed (a live stream, which lasts as long as the page is open, is
/// counted only).
struct WebPageMiddleware: RouterMiddleware {
    typealias Context = HubRequestContext

    let site: WebSite

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            let problem = HubProblem.answering(error, route: route(request, context), logger: site.logger)
            response = WebResponse.problem(problem.status, problem.document.title, problem.document.detail ?? "")
        }
        let elapsed = ContinuousClock.now - start
        let route = route(request, context)
        site.metrics.request(route: route, status: response.status.code,
                             seconds: route.hasSuffix("/live") ? nil : Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds))
        return response
    }

    /// The page's route as the router matched it (`web GET /events/{event}/guests`).
    func route(_ request: Request, _ context: Context) -> String {
        "web \(request.method) \(context.endpointPath ?? request.uri.path)"
    }
}
