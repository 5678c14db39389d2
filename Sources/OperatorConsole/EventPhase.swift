import CheckInCore

/// Where an event stands by the station's clock: the picker marks the ones on now and the
/// ones over, and never preselects one that is over.
public enum EventPhase: Sendable, Equatable {
    /// Started and not ended.
    case now
    /// Starts later.
    case upcoming
    /// Ended.
    case ended
    /// No start time: the picker cannot tell.
    case undated

    /// An event without an end is taken to last a day from its start.
    static let assumedLength: Int64 = 86_400_000

    public static func of(startsAt: Timestamp?, endsAt: Timestamp?, now: Timestamp) -> EventPhase {
        guard let startsAt else { return .undated }
        if now < startsAt { return .upcoming }
        let end = endsAt ?? startsAt.adding(milliseconds: assumedLength)
        return now <= end ? .now : .ended
    }

    /// The word beside the event in the picker ("" for one that has not started).
    public var mark: String {
        switch self {
        case .now: "now"
        case .ended: "ended"
        case .upcoming, .undated: ""
        }
    }

    /// Which of a list (in the hub's order, by start) is chosen at first: the last one started
    /// that is on now (a day within a festival), else the next to start, else one without dates;
    /// never one that has ended.
    public static func preferred(_ phases: [EventPhase]) -> Int? {
        phases.lastIndex(of: .now) ?? phases.firstIndex(of: .upcoming) ?? phases.firstIndex(of: .undated)
    }
}
