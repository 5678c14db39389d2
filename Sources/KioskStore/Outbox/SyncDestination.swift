/// Where a queued change belongs: the hub and the event it was recorded for. It is uploaded
/// there and nowhere else, whatever the station uses by the time it syncs.
public struct SyncDestination: Sendable, Hashable {
    /// The hub's URL as the session stores it (`http(s)://host[:port]`).
    public var hubURL: String
    public var eventID: String

    public init(hubURL: String, eventID: String) {
        self.hubURL = hubURL
        self.eventID = eventID
    }

    /// The destination of a pretix check-in list: never a hub address (`pretix+` in front), so
    /// the hub's sync never takes its changes.
    public static func pretix(server: String, eventID: String) -> SyncDestination {
        SyncDestination(hubURL: pretixPrefix + server, eventID: eventID)
    }

    /// Whether this is a pretix list's, which keeps a list of failed check-ins (``RefusedScan``).
    public var isPretix: Bool { hubURL.hasPrefix(Self.pretixPrefix) }

    private static let pretixPrefix = "pretix+"
}

/// Why a pending change waits for the next roster pull before it is sent again.
public enum OutboxHold: String, Sendable, Hashable, CaseIterable {
    /// The hub did not know the guest (its roster, or ours, may be behind): retried after each of
    /// the next pulls, refused for good after ``maximumUnknownAnswers`` answers.
    case unknownCode = "unknown_code"
    /// The hub refused the time (this station's clock was wrong when it was recorded): kept,
    /// never dropped, retried after each pull, shown as a clock fault.
    case implausibleTime = "implausible_time"

    /// "Unknown code" is final only after the first answer and three more after three pulls.
    public static let maximumUnknownAnswers = 4
}

/// Changes pending for one destination, for `kiosk status` and the console
/// ("3 waiting for Spring Gala, not signed in").
public struct PendingGroup: Sendable, Hashable {
    /// `nil` for changes recorded without a hub (adopted by the first event chosen).
    public var destination: SyncDestination?
    /// The event's name when known.
    public var eventName: String?
    public var pending: Int
    /// Of those, waiting for the next pull (see ``OutboxHold``).
    public var held: Int
    /// Of those, recorded while the station's clock was not believable.
    public var clockSuspect: Int
}
