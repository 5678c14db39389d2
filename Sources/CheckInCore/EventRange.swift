/// Which events a staff member sees when choosing one: those of today, of this week, or all.
/// The `range` query parameter of `GET /v1/events` and the tabs of the console's event picker.
public enum EventRange: String, Sendable, Hashable, Codable, CaseIterable {
    case today
    case week
    case all
}
