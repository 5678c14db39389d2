import CheckInCore

/// Whether a walk-in may be merged into a registration: a pure function of what the store read
/// inside its write transaction, shared by both stores (like ``UndoDecider``).
public enum MergeDecider {
    /// A guest row as the decision needs it.
    public struct Guest: Sendable, Equatable {
        public var walkIn: Bool
        public var deleted: Bool
        public var mergedInto: String?

        public init(walkIn: Bool, deleted: Bool, mergedInto: String?) {
            self.walkIn = walkIn
            self.deleted = deleted
            self.mergedInto = mergedInto
        }
    }

    public static func decide(walkInID: String, registrationID: String, walkIn: Guest?, registration: Guest?) -> MergeOutcome {
        guard let walkIn else { return .unknownWalkIn }
        if let into = walkIn.mergedInto { return into == registrationID ? .alreadyMerged : .mergedElsewhere(into) }
        guard walkIn.walkIn else { return .notAWalkIn }
        guard !walkIn.deleted else { return .unknownWalkIn }
        guard walkInID != registrationID else { return .sameGuest }
        guard let registration, !registration.deleted else { return .unknownRegistration }
        return .merged
    }
}

/// What ``ReviewRepository/mergeWalkIn(event:walkIn:into:by:now:)`` did, with what the person should do.
public enum MergeOutcome: Sendable, Hashable, CustomStringConvertible {
    case merged
    /// Merged into this registration before: nothing changed.
    case alreadyMerged
    case mergedElsewhere(String)
    case unknownWalkIn
    case notAWalkIn
    case unknownRegistration
    case sameGuest

    /// Whether the roster changed now.
    public var changed: Bool { self == .merged }

    /// Whether the page may say it is done (a repeated click is not an error).
    public var succeeded: Bool { self == .merged || self == .alreadyMerged }

    public var description: String {
        switch self {
        case .merged: "The walk-in was merged into the registration; stations apply it at their next sync."
        case .alreadyMerged: "The walk-in was merged into this registration before; nothing changed."
        case .mergedElsewhere(let id): "The walk-in was merged into another registration (\(id)) before; reload the page."
        case .unknownWalkIn: "There is no such walk-in in this event (removed meanwhile?); reload the page."
        case .notAWalkIn: "Only a walk-in can be merged into a registration."
        case .unknownRegistration: "The registration is not (or no longer) on the roster; reload the page."
        case .sameGuest: "A walk-in cannot be merged into itself."
        }
    }
}
