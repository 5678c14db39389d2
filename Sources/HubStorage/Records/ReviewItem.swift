import CheckInCore
import HubAPI

/// Something the hub kept but wants a person to look at.
public struct ReviewItem: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// An admission refused as already checked in beyond the tolerance window (two offline doors).
        case conflict
        /// A walk-in flagged by the hub: a possible duplicate of a registration, or an unknown access type.
        case walkIn = "walk_in"
        /// An upload the hub refused (revoked, not valid here, outside its window, unknown code…).
        case refusal
        /// An exit by someone the hub did not have inside.
        case flaggedExit = "flagged_exit"

        /// What marking an item of this kind reviewed is audited as.
        var auditKind: OrganizerAction.Kind {
            switch self {
            case .conflict, .flaggedExit: .conflictReviewed
            case .walkIn: .walkInReviewed
            case .refusal: .refusalReviewed
            }
        }
    }

    public var kind: Kind
    /// What a mark names: the check-in's key (``CheckInCore/IdempotencyKey/description``), or the walk-in's guest id.
    public var subject: String
    /// The guest concerned (name and code empty when the hub has no such guest: an unknown code).
    public var guest: ReviewGuest
    /// The upload the item is about: the conflict's later admission, the refused or flagged
    /// movement, the walk-in's creation.
    public var upload: ReviewUpload
    /// What the hub decided, as stored: the decision (`already_checked_in`, `revoked`…), the
    /// flag (`exit_without_entry`) or, for walk-ins, `possible_duplicate` / `access_type`.
    public var decision: String
    /// The hub's reason in words, when it gave one.
    public var reason: String?
    /// A conflict's first admission, the one the hub kept.
    public var first: ReviewUpload?
    /// Whether that first admission was undone since.
    public var firstUndone: Bool
    /// A walk-in's registration with the same e-mail (or the one it was merged into).
    public var registration: ReviewGuest?
    /// Who decided what, when; `nil` while it waits for a look.
    public var mark: ReviewMark?

    public init(kind: Kind, subject: String, guest: ReviewGuest, upload: ReviewUpload, decision: String, reason: String? = nil,
                first: ReviewUpload? = nil, firstUndone: Bool = false, registration: ReviewGuest? = nil, mark: ReviewMark? = nil) {
        self.kind = kind
        self.subject = subject
        self.guest = guest
        self.upload = upload
        self.decision = decision
        self.reason = reason
        self.first = first
        self.firstUndone = firstUndone
        self.registration = registration
        self.mark = mark
    }
}

/// A guest as the review page names it.
public struct ReviewGuest: Sendable, Hashable {
    public var id: String
    public var name: String
    public var code: String
    public var email: String

    public init(id: String, name: String = "", code: String = "", email: String = "") {
        self.id = id
        self.name = name
        self.code = code
        self.email = email
    }
}

/// Where, by whom and when something was recorded at a door.
public struct ReviewUpload: Sendable, Hashable {
    public var deviceID: String
    public var guestID: String
    public var at: Timestamp
    public var station: String
    public var operatorName: String

    public init(deviceID: String, guestID: String, at: Timestamp, station: String, operatorName: String) {
        self.deviceID = deviceID
        self.guestID = guestID
        self.at = at
        self.station = station
        self.operatorName = operatorName
    }

    /// The check-in's idempotency key (for a walk-in: its creation, no check-in).
    public var key: IdempotencyKey { IdempotencyKey(deviceID: deviceID, guestID: guestID, scannedAt: at) }
}

/// What a person decided about a ``ReviewItem``.
public struct ReviewMark: Sendable, Hashable {
    public enum Resolution: String, Sendable, Hashable {
        /// Kept as it is.
        case reviewed
        /// The walk-in went into the registration.
        case merged
    }

    public var resolution: Resolution
    public var actorID: String
    public var actorName: String
    public var at: Timestamp

    public init(resolution: Resolution, actorID: String, actorName: String, at: Timestamp) {
        self.resolution = resolution
        self.actorID = actorID
        self.actorName = actorName
        self.at = at
    }
}

/// What ``ReviewRepository/markReviewed(event:kind:subject:by:now:)`` did.
public enum ReviewMarkOutcome: Sendable, Hashable {
    case marked(ReviewMark)
    /// Someone decided before: nothing changed, their mark stays.
    case alreadyMarked(ReviewMark)
    /// No such item in the event (a stale page, a forged form).
    case notFound
}
