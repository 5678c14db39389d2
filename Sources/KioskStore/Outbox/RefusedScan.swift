import CheckInCore

/// A scan the door refused, queued for a destination that keeps a list of failed check-ins
/// (pretix's `failed_checkins`), so the organizer's own reports show who was turned away and why.
/// Recorded in the transaction of the refusal; hubs do not take them.
public struct RefusedScan: Sendable, Hashable, Codable {
    /// The station that refused it.
    public var deviceID: String
    public var scannedAt: Timestamp
    /// What was presented, as read (at most ``maximumCodeLength`` characters): sealed in the outbox
    /// like every code.
    public var code: String
    /// The guest the code belongs to; `nil` for a code the station does not know.
    public var guestID: String?
    /// The guest's access type (the product, at pretix), when known.
    public var accessTypeID: String?
    public var decision: Decision.Kind
    /// Why the ticket is not valid at all (canceled, blocked, …), when the roster says.
    public var ticketRefusal: TicketRefusal?
    public var direction: Direction

    public static let maximumCodeLength = 512

    public init(deviceID: String, scannedAt: Timestamp, code: String, guestID: String?, accessTypeID: String?,
                decision: Decision.Kind, ticketRefusal: TicketRefusal?, direction: Direction) {
        self.deviceID = deviceID
        self.scannedAt = scannedAt
        self.code = String(code.prefix(Self.maximumCodeLength))
        self.guestID = guestID
        self.accessTypeID = accessTypeID
        self.decision = decision
        self.ticketRefusal = ticketRefusal
        self.direction = direction
    }

    /// Unique per station and millisecond: the same scan recorded twice is one refusal.
    public var ref: String { "refused/\(deviceID)/\(scannedAt.milliseconds)" }
}
