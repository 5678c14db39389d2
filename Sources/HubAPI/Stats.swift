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
    /// Exits recorded for someone not inside, not undone (see ``ConflictList/flaggedExits``);
    /// absent from hubs before this field existed.
    public var flaggedExits: Int?

    public init(
        expected: Int, checkedIn: Int, inside: Int, duplicates: Int, conflicts: Int, accessTypes: [StatsGroup] = [], stations: [StatsGroup] = [],
        flaggedExits: Int? = nil
    ) {
        self.expected = expected
        self.checkedIn = checkedIn
        self.inside = inside
        self.duplicates = duplicates
        self.conflicts = conflicts
        self.accessTypes = accessTypes
        self.stations = stations
        self.flaggedExits = flaggedExits
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

/// A walk-in the hub kept but wants an organizer to look at (e.g. its access type was unknown
/// and it was recorded under the event's default type).
public struct WalkInReview: Sendable, Hashable, Codable {
    public var guestID: String
    /// The access type the station sent.
    public var requestedAccessTypeID: String
    /// The access type the hub recorded.
    public var accessTypeID: String
    /// Why it needs a look.
    public var review: String
    public var deviceID: String
    public var station: String
    /// The operator the station reported.
    public var operatorName: String
    /// The staff id of the session that uploaded it.
    public var uploadedBy: String
    public var createdAt: Timestamp

    public init(
        guestID: String, requestedAccessTypeID: String, accessTypeID: String, review: String, deviceID: String,
        station: String, operatorName: String, uploadedBy: String, createdAt: Timestamp
    ) {
        self.guestID = guestID
        self.requestedAccessTypeID = requestedAccessTypeID
        self.accessTypeID = accessTypeID
        self.review = review
        self.deviceID = deviceID
        self.station = station
        self.operatorName = operatorName
        self.uploadedBy = uploadedBy
        self.createdAt = createdAt
    }
}

/// A recorded movement the hub flagged for an organizer (today: an exit by someone it did not
/// have inside, ``CheckInCore/CheckInFlag/exitWithoutEntry``). The flag is the answer the
/// uploading station got; a later upload (an offline station's entry scanned before it) does not
/// lift it, an undo of the exit does.
public struct FlaggedExit: Sendable, Hashable, Codable {
    public var guestID: String
    public var flag: CheckInFlag
    /// Who recorded the exit, at which station, and its scan time.
    public var exit: PreviousCheckIn

    public init(guestID: String, flag: CheckInFlag, exit: PreviousCheckIn) {
        self.guestID = guestID
        self.flag = flag
        self.exit = exit
    }
}

/// `GET /v1/events/{event}/conflicts` answer.
public struct ConflictList: Sendable, Hashable, Codable {
    public var conflicts: [Conflict]
    /// Walk-ins flagged for review, oldest first (absent from hubs before this field existed).
    public var reviews: [WalkInReview]?
    /// Exits flagged for review, in the order the hub recorded them (absent from hubs before
    /// this field existed).
    public var flaggedExits: [FlaggedExit]?

    public init(conflicts: [Conflict], reviews: [WalkInReview]? = nil, flaggedExits: [FlaggedExit]? = nil) {
        self.conflicts = conflicts
        self.reviews = reviews
        self.flaggedExits = flaggedExits
    }
}
