import HubAPI
import Hummingbird

/// What organizers read about an event: its figures (any role that sees the event) and what to
/// review (support and organizers).
struct ReportController {
    let hub: HubRoutes
    let reports: any ReportRepository

    func addStats(to group: RouterGroup<HubRequestContext>) {
        group.get("stats", use: hub.wrap("stats") { _, context in
            try hub.json(try await reports.stats(event: try context.requireEvent().id))
        })
    }

    func addReview(to group: RouterGroup<HubRequestContext>) {
        group.get("conflicts", use: hub.wrap("conflicts") { _, context in
            let event = try context.requireEvent()
            return try hub.json(ConflictList(
                conflicts: try await reports.conflicts(event: event.id), reviews: try await reports.walkInReviews(event: event.id),
                flaggedExits: try await reports.flaggedExits(event: event.id)))
        })
    }
}
