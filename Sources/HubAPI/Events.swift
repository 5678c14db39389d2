import CheckInCore

/// One event a caller may access.
public struct EventSummary: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    public var startsAt: Timestamp?
    public var endsAt: Timestamp?
    /// IANA time zone of the venue, e.g. `Europe/Berlin`, for showing local times.
    public var timeZone: String
    /// Two admissions of one guest closer than this are one check-in (see ``CheckInCore/EventPolicy``).
    public var toleranceWindowMilliseconds: Int64
    /// How long the station that made a check-in may undo it on its own.
    public var stationUndoMilliseconds: Int64

    public init(
        id: String, name: String, startsAt: Timestamp? = nil, endsAt: Timestamp? = nil, timeZone: String = "UTC",
        toleranceWindowMilliseconds: Int64 = EventPolicy.defaultToleranceWindowMilliseconds,
        stationUndoMilliseconds: Int64 = 300_000
    ) {
        self.id = id
        self.name = name
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.timeZone = timeZone
        self.toleranceWindowMilliseconds = toleranceWindowMilliseconds
        self.stationUndoMilliseconds = stationUndoMilliseconds
    }

    public var policy: EventPolicy { EventPolicy(toleranceWindowMilliseconds: toleranceWindowMilliseconds) }
}

/// `GET /v1/events` answer.
public struct EventList: Sendable, Hashable, Codable {
    public var events: [EventSummary]

    public init(events: [EventSummary]) { self.events = events }
}
