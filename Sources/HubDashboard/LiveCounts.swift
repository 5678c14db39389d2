import CheckInCore
import Foundation
import HubAPI
import HubServer

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
    var accessTypes: [AccessTypeRow]
    var stations: [StatsGroup]
    // Stored, not computed: templates see stored properties only (swift-mustache reads them by reflection).
    var hasAccessTypes: Bool
    var hasStations: Bool
    /// The latest check-ins, newest first.
    var recent: [FeedRow]
    var hasRecent: Bool
    /// Entries over time (``ArrivalsChart``), drawn in the `live-groups` partial.
    var arrivals: ArrivalsChart

    /// One access type's counts, under the name organizers gave it (its id when it has none).
    struct AccessTypeRow: Sendable, Encodable {
        var name: String
        var expected: Int
        var checkedIn: Int
        var inside: Int
    }

    /// One line of the feed, in words and in the event's time zone.
    struct FeedRow: Sendable, Encodable {
        var guest: String
        var station: String
        var by: String
        var how: String
        var at: String
    }

    /// How many check-ins the feed shows.
    static let feedLength = 15

    init(_ stats: EventStats, recent: [RecentCheckIn], arrivals: ArrivalsChart = .hidden, accessTypeNames: [String: String] = [:],
         at now: Timestamp, time: WebTime) {
        self.arrivals = arrivals
        expected = stats.expected
        checkedIn = stats.checkedIn
        inside = stats.inside
        duplicates = stats.duplicates
        conflicts = stats.conflicts
        updatedAt = time.time(now)
        accessTypes = stats.accessTypes.map {
            AccessTypeRow(name: accessTypeNames[$0.id].flatMap { $0.isEmpty ? nil : $0 } ?? $0.id, expected: $0.expected,
                          checkedIn: $0.checkedIn, inside: $0.inside)
        }
        stations = stats.stations
        hasAccessTypes = !stats.accessTypes.isEmpty
        hasStations = !stats.stations.isEmpty
        self.recent = recent.map {
            FeedRow(guest: $0.guestName.isEmpty ? "(unknown guest)" : $0.guestName, station: $0.station, by: $0.operatorName,
                    how: ($0.direction == "exit" ? "exit" : "entry") + ", " + $0.source.replacingOccurrences(of: "_", with: "-"),
                    at: time.time($0.scannedAt))
        }
        hasRecent = !recent.isEmpty
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
