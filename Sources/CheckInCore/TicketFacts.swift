/// What a ticketing system's export says about one ticket beyond who holds it, kept with the
/// guest and enforced at every door, online or not: its own validity window, a note the door
/// staff must see, its order, and a check-in made before the roster was imported.
public struct TicketFacts: Sendable, Hashable, Codable {
    /// The ticket opens no door before this instant (pretix `Valid from`).
    public var validFrom: Timestamp?
    /// The ticket opens no door after this instant (pretix `Valid until`).
    public var validUntil: Timestamp?
    /// Shown to the staff when the ticket is admitted ("Hand out the VIP lanyard"); never printed.
    public var attention: String?
    /// The order the ticket was bought in: a family, a group booking. Empty when the export has none.
    public var orderCode: String
    /// Checked in by the ticketing system before this roster was imported.
    public var checkedInBefore: Timestamp?
    /// Why the ticket shop does not admit it (a revoked guest's reason), when it said.
    public var refusal: TicketRefusal?
    /// The ticket's own id at the ticket shop (pretix's order position), for what the station
    /// tells it about the ticket (a printed badge).
    public var shopTicketID: String?
    /// When another of the ticket shop's devices first printed a badge for it: print policy
    /// "once" prints no second one.
    public var badgePrintedElsewhere: Timestamp?
    /// The order's answers the door shows at admission ("T-shirt size: M"; pretix's questions
    /// marked "show during check-in").
    public var shownAnswers: [String]
    /// The shop's questions at the door this ticket has no answer to yet (their ids): asked
    /// before its next entry (``DoorQuestion``; the door holds the questions themselves).
    public var questionsToAsk: [String]

    public init(
        validFrom: Timestamp? = nil, validUntil: Timestamp? = nil, attention: String? = nil, orderCode: String = "",
        checkedInBefore: Timestamp? = nil, refusal: TicketRefusal? = nil, shopTicketID: String? = nil,
        badgePrintedElsewhere: Timestamp? = nil, shownAnswers: [String] = [], questionsToAsk: [String] = []
    ) {
        self.shownAnswers = shownAnswers
        self.questionsToAsk = questionsToAsk
        self.refusal = refusal
        self.shopTicketID = shopTicketID
        self.badgePrintedElsewhere = badgePrintedElsewhere
        self.validFrom = validFrom
        self.validUntil = validUntil
        self.attention = attention
        self.orderCode = orderCode
        self.checkedInBefore = checkedInBefore
    }

    /// Whether the ticket's own window admits an entry at this instant.
    public func isValid(at instant: Timestamp) -> Bool {
        if let validFrom, instant < validFrom { return false }
        if let validUntil, instant > validUntil { return false }
        return true
    }

    /// The staff note, when there is one that says something.
    public var attentionNote: String? {
        guard let attention, !attention.trimmedWhitespace().isEmpty else { return nil }
        return attention
    }

    /// An older peer sends no `orderCode`: none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        validFrom = try container.decodeIfPresent(Timestamp.self, forKey: .validFrom)
        validUntil = try container.decodeIfPresent(Timestamp.self, forKey: .validUntil)
        attention = try container.decodeIfPresent(String.self, forKey: .attention)
        orderCode = try container.decodeIfPresent(String.self, forKey: .orderCode) ?? ""
        checkedInBefore = try container.decodeIfPresent(Timestamp.self, forKey: .checkedInBefore)
        refusal = try? container.decodeIfPresent(TicketRefusal.self, forKey: .refusal)
        shopTicketID = try? container.decodeIfPresent(String.self, forKey: .shopTicketID)
        badgePrintedElsewhere = try? container.decodeIfPresent(Timestamp.self, forKey: .badgePrintedElsewhere)
        shownAnswers = (try? container.decodeIfPresent([String].self, forKey: .shownAnswers)) ?? []
        questionsToAsk = (try? container.decodeIfPresent([String].self, forKey: .questionsToAsk)) ?? []
    }
}
