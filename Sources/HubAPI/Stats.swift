import CheckInCore

/// Counts for one group (an access type or a station).
public struct StatsGroup: Sendable, Hashable, Codable {
    public var id: String
    public var expected: Int
    public var checkedIn: Int
    public var inside: Int

    public init(id: String, expected: Int, checkedIn: Int, inside: Int) {
        self.id = id
        self.expected = expected
        self.checkedIn = checkedIn
        self.inside = inside
    }
}

/// `GET /v1/events/{event}/stats` answer (also `checkin-hub stats --json`, in snake_case there).
public struct EventStats: Sendable, Hashable, Codable {
    /// Guests on the roster, not revoked.
    public var expected: Int
    /// Guests with at least one admission not undone.
    public var checkedIn: Int
    /// Guests whose last movement was an entry.
    public var inside: Int
    /// Uploads answered `duplicate`.
    public var duplicates: Int
    /// Offline double entries on single-entry access types (see ``ConflictList``).
    public var conflicts: Int
    public var accessTypes: [StatsGroup]
    /// Per station: ``StatsGroup/checkedIn`` counts admissions made there; ``StatsGroup/expected`` and ``StatsGroup/inside`` are 0.
    public var stations: [StatsGroup]

    public init(expected: Int, checkedIn: Int, inside: Int, duplicates: Int, conflicts: Int, accessTypes: [StatsGroup] = [], stations: [StatsGroup] = []) {
        self.expected = expected
        self.checkedIn = checkedIn
        self.inside = inside
        self.duplicates = duplicates
        self.conflicts = conflicts
        self.accessTypes = accessTypes
        self.stations = stations
    }
}

/// An offline double entry: a station admitted a single-entry guest (the guest passed, so the
/// station's own decision stands) although the hub already had an admission beyond the window.
public struct Conflict: Sendable, Hashable, Codable {
    public var guestID: String
    /// The admission the hub had first.
    public var first: PreviousCheckIn
    /// The later upload, answered `rejected: already_checked_in`.
    public var second: PreviousCheckIn

    public init(guestID: String, first: PreviousCheckIn, second: PreviousCheckIn) {
        self.guestID = guestID
        self.first = first
        self.second = second
    }
}

/// `GET /v1/events/{event}/conflicts` answer.
public struct ConflictList: Sendable, Hashable, Codable {
    public var conflicts: [Conflict]

    public init(conflicts: [Conflict]) { self.conflicts = conflicts }
}
