import CheckInCore

/// What the store decided and committed for one presentation, reduced to what the station
/// shows: the decision, who (when the code named a guest), and the badge job written in the
/// same transaction, if the print policy wanted one.
public struct RecordedOutcome: Sendable, Equatable {
    public var decision: Decision
    public var guest: GuestSummary?
    /// The badge job committed with the check-in (first state `queued`).
    public var badgeJobID: Int64?
    /// Whether this call wrote anything the hub must learn (a check-in or a walk-in).
    public var recorded: Bool
    /// Recorded, and listed for the organizer: an exit by someone not inside.
    public var flag: CheckInFlag?
    /// No badge printed though one was asked for: the ticket has no name yet.
    public var badgeWithheld = false

    public init(decision: Decision, guest: GuestSummary?, badgeJobID: Int64? = nil, recorded: Bool = false, flag: CheckInFlag? = nil) {
        self.decision = decision
        self.guest = guest
        self.badgeJobID = badgeJobID
        self.recorded = recorded
        self.flag = flag
    }
}

/// A guest as the result panel and the headless line name them.
public struct GuestSummary: Sendable, Equatable {
    public var id: String
    public var name: String
    public var accessType: String
    public var code: String
    /// The ticket's note for the door staff (``CheckInCore/TicketFacts/attention``).
    public var attention: String?
    /// Why the ticket shop does not admit the ticket (a revoked guest), when it said.
    public var refusal: TicketRefusal?
    /// The order's answers shown at the door (``CheckInCore/TicketFacts/shownAnswers``).
    public var answers: [String]

    public init(id: String, name: String, accessType: String, code: String, attention: String? = nil, refusal: TicketRefusal? = nil,
                answers: [String] = []) {
        self.answers = answers
        self.attention = attention
        self.refusal = refusal
        self.id = id
        self.name = name
        self.accessType = accessType
        self.code = code
    }
}
