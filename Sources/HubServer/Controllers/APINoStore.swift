import HTTPTypes
import Hummingbird

/// `Cache-Control: no-store` on every answer under `/v1` (security review F9): roster pages,
/// conflicts and the station list carry guests' names and e-mails, and no cache between a
/// station and the hub (a proxy, a debugging tool) should keep an answer to a request with a
/// token. Errors too: a thrown error is answered here, with the header, instead of later without it.
/// The dashboard's pages and exports say the same through ``WebResponse``.
struct APINoStore<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard path == "/v1" || path.hasPrefix("/v1/") else { return try await next(request, context) }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.cacheControl] = "no-store"
        return response
    }
}
