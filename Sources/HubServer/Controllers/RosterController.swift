import HubAPI
import Hummingbird

/// The roster's change pages, answered at once or held as a long-poll (``RosterLongPoll``).
struct RosterController {
    let hub: HubRoutes

    func add(to group: RouterGroup<HubRequestContext>) {
        group.get("roster", use: hub.wrap("roster", timed: { ($0.uri.queryParameters.get("wait") ?? "0") == "0" }) { request, context in
            let event = try context.requireEvent()
            let cursorText = request.uri.queryParameters.get("cursor") ?? "0"
            guard let cursor = Int64(cursorText), cursor >= 0 else { throw HubProblem.invalid("cursor", "The cursor is a number from an earlier page.") }
            let limitText = request.uri.queryParameters.get("limit") ?? "1000"
            guard let limit = Int(limitText), limit > 0 else { throw HubProblem.invalid("limit", "A positive number of items.") }
            let wait = try RosterLongPoll.wait(request.uri.queryParameters.get("wait"))
            switch try await RosterLongPoll(store: hub.store, feed: hub.feed).answer(
                event: event.id, after: cursor, limit: min(limit, HubPaths.maximumPageSize), wait: wait) {
            case .page(let page):
                return try hub.json(page)
            case .notHeld(let page):
                var response = try hub.json(page)
                response.headers[.retryAfter] = "1"
                return response
            }
        })
    }
}
