import CheckInCore

/// The station's sign-in against the hub's absolute session lifetime: it ends whatever is
/// refreshed, and the staff are warned 12 hours before, while someone can still sign in again.
public enum SessionHealth: Sendable, Equatable {
    /// Not signed in, or no end known.
    case none
    case lasting(until: Timestamp)
    case endingSoon(at: Timestamp)

    public static let warningMilliseconds: Int64 = 12 * 3_600_000

    /// The decision, from the session's end and the time now.
    public static func judge(endsAt: Timestamp?, now: Timestamp) -> SessionHealth {
        guard let endsAt else { return .none }
        return endsAt.milliseconds(since: now) <= warningMilliseconds ? .endingSoon(at: endsAt) : .lasting(until: endsAt)
    }

    var endsAt: Timestamp? {
        switch self {
        case .none: nil
        case .lasting(let at), .endingSoon(let at): at
        }
    }
}
