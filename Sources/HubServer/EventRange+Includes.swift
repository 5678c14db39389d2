import CheckInCore
import HubAPI

extension EventRange {
    /// Whether `event` falls in the range at `now`: today and this week take events that start
    /// before the range's end and did not end more than a day ago; an event without dates is in
    /// every range. One rule for `GET /v1/events?range=` and the dashboard's filters.
    package func includes(_ event: EventSummary, now: Timestamp) -> Bool {
        let horizon: Int64? = switch self {
        case .today: 86_400_000
        case .week: 7 * 86_400_000
        case .all: nil
        }
        guard let horizon else { return true }
        // Saturating arithmetic: event times are whatever an organizer typed.
        let start = event.startsAt ?? Timestamp(milliseconds: .min), end = event.endsAt ?? Timestamp(milliseconds: .max)
        return start <= now.adding(milliseconds: horizon) && end >= now.adding(milliseconds: -86_400_000)
    }
}
