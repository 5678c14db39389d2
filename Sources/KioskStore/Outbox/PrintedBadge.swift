import CheckInCore

/// A badge this station printed, queued for a destination that keeps print logs (pretix's
/// `printlog`), so "print once" on the ticket shop's other devices knows the guest has one.
/// Recorded in the transaction that marks the job printed; hubs do not take them.
public struct PrintedBadge: Sendable, Hashable, Codable {
    public var deviceID: String
    /// The station's print job.
    public var jobID: Int64
    public var guestID: String
    /// The ticket's id at the ticket shop (``TicketFacts/shopTicketID``): where the log goes.
    public var shopTicketID: String?
    public var printedAt: Timestamp

    public init(deviceID: String, jobID: Int64, guestID: String, shopTicketID: String?, printedAt: Timestamp) {
        self.deviceID = deviceID
        self.jobID = jobID
        self.guestID = guestID
        self.shopTicketID = shopTicketID
        self.printedAt = printedAt
    }

    /// One per print job of this station.
    public var ref: String { "printed/\(deviceID)/\(jobID)" }
}
