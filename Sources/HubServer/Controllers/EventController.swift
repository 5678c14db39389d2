import CheckInCore
import HubAPI
import Hummingbird

/// The list of events the caller may see.
struct EventController {
    let hub: HubRoutes
    let events: any EventRepository

    func add(to group: RouterGroup<HubRequestContext>) {
        group.get(RouterPath(HubPaths.events), use: hub.wrap("events") { request, context in
            let caller = try context.requireCaller()
            let rangeText = request.uri.queryParameters.get("range") ?? "all"
            guard let range = EventRange(rawValue: rangeText) else { throw HubProblem.invalid("range", "Use today, week or all.") }
            let now = Timestamp.now()
            let visible = try await events.events(visibleTo: caller.staff).filter { range.includes($0, now: now) }
            return try hub.json(EventList(events: visible))
        })
    }
}
