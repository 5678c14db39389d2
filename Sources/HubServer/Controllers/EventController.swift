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
            let horizon: Int64? = switch range {
            case .today: 86_400_000
            case .week: 7 * 86_400_000
            case .all: nil
            }
            // Saturating arithmetic: event times are whatever an organizer typed.
            let visible = try await events.events(visibleTo: caller.staff).filter { event in
                guard let horizon else { return true }
                let start = event.startsAt ?? Timestamp(milliseconds: .min), end = event.endsAt ?? Timestamp(milliseconds: .max)
                return start <= now.adding(milliseconds: horizon) && end >= now.adding(milliseconds: -86_400_000)
            }
            return try hub.json(EventList(events: visible))
        })
    }
}
