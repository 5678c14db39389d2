/// A person on the roster, identified by a stable id and presenting a ticket code.
public struct Guest: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    public var code: TicketCode
    public var name: String
    public var email: String
    public var company: String
    public var accessTypeID: String
    /// A revoked ticket (refunded, transferred, cancelled) is refused at the door.
    public var revoked: Bool
    /// Registered at the door rather than imported or synced.
    public var walkIn: Bool
    /// The ticket's own window, staff note, order and earlier check-in, from the export.
    public var facts: TicketFacts

    public init(
        id: String, code: TicketCode, name: String, email: String = "", company: String = "",
        accessTypeID: String, revoked: Bool = false, walkIn: Bool = false, facts: TicketFacts = TicketFacts()
    ) {
        self.facts = facts
        self.id = id
        self.code = code
        self.name = name
        self.email = email
        self.company = company
        self.accessTypeID = accessTypeID
        self.revoked = revoked
        self.walkIn = walkIn
    }
}
