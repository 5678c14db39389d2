import CheckInCore
import HubAPI
import HubServer

/// Reads the live page's arrivals chart (``ArrivalsChart``) for an event: its plan from the
/// event's dates, the counts in one query.
enum LiveArrivals {
    static func read(_ store: any ArrivalRepository, event: EventSummary, time: WebTime, now: Timestamp) async throws -> ArrivalsChart {
        let plan = ArrivalsChart.Plan(startsAt: event.startsAt, endsAt: event.endsAt, now: now, zone: time.zone)
        let counts = try await store.arrivals(event: event.id, from: plan.from, until: plan.until, bucketMilliseconds: plan.bucketMilliseconds)
        return ArrivalsChart(plan: plan, counts: counts, time: time)
    }
}
