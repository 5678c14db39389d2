import CheckInCore
import HubAPI

/// What the live event page shows, made from the store's ``HubAPI/EventStats``: the first
/// render and every server-sent update come from this one value, so they cannot disagree.
struct LiveCounts: Sendable, Encodable {
    var expected: Int
    var checkedIn: Int
    var inside: Int
    var duplicates: Int
    var conflicts: Int
    /// When these counts were read, in the event's time zone (``WebTime``).
    var updatedAt: String
    var accessTypes: [StatsGroup]
    var stations: [StatsGroup]
    // Stored, not computed: templates see stored properties only (swift-mustache reads them by reflection).
    var hasAccessTypes: Bool
    var hasStations: Bool

    init(_ stats: EventStats, at now: Timestamp, time: WebTime) {
        expected = stats.expected
        checkedIn = stats.checkedIn
        inside = stats.inside
        duplicates = stats.duplicates
        conflicts = stats.conflicts
        updatedAt = time.time(now)
        accessTypes = stats.accessTypes
        stations = stats.stations
        hasAccessTypes = !stats.accessTypes.isEmpty
        hasStations = !stats.stations.isEmpty
    }

    /// The per-group tables as HTML (the `live-groups` template, escaped by it).
    var groupsHTML: String { WebAssets.render("live-groups", self) }

    /// The server-sent update: the counts the page shows by `data-count`, and the tables.
    var update: Update {
        Update(expected: expected, checkedIn: checkedIn, inside: inside, updatedAt: updatedAt, groupsHTML: groupsHTML)
    }

    struct Update: Sendable, Encodable {
        var expected: Int
        var checkedIn: Int
        var inside: Int
        var updatedAt: String
        var groupsHTML: String
    }
}
