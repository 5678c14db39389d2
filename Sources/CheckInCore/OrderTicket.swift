/// A ticket as a ticketing system with orders knows it: the order's state, the ticket's own
/// block and validity, its product and date, and what must be asked before it is admitted.
/// What ``OrderCheckInRules`` decides on, whatever the source (pretix fills it from an order
/// position and its order).
public struct OrderTicket: Sendable, Hashable, Codable {
    /// Where the order stands.
    public enum OrderStatus: String, Sendable, Hashable, Codable, CaseIterable {
        case paid
        /// Placed, not yet paid (pretix `n`).
        case pending
        /// Not paid in time (pretix `e`): treated like a canceled order.
        case expired
        case canceled
    }

    public var orderStatus: OrderStatus
    /// The order awaits the organizer's approval: unpaid, it is not admitted, even where
    /// pending orders are.
    public var requiresApproval: Bool
    /// A pending order whose tickets are valid before payment (pretix `valid_if_pending`).
    public var validIfPending: Bool
    /// The organizer blocked this ticket.
    public var blocked: Bool
    /// No entry before this instant.
    public var validFrom: Timestamp?
    /// No entry after this instant.
    public var validUntil: Timestamp?
    /// The product's identifier (pretix: the item's id).
    public var product: String
    /// The product as the door staff reads it.
    public var productName: String
    /// The date of an event series the ticket is for.
    public var subevent: String?
    /// Questions to ask at the door before admission that the ticket has no answer to yet
    /// (their identifiers); entries cannot be decided offline while there are any.
    public var questionsToAsk: [String]

    public init(orderStatus: OrderStatus = .paid, requiresApproval: Bool = false, validIfPending: Bool = false, blocked: Bool = false,
                validFrom: Timestamp? = nil, validUntil: Timestamp? = nil, product: String, productName: String,
                subevent: String? = nil, questionsToAsk: [String] = []) {
        self.orderStatus = orderStatus
        self.requiresApproval = requiresApproval
        self.validIfPending = validIfPending
        self.blocked = blocked
        self.validFrom = validFrom
        self.validUntil = validUntil
        self.product = product
        self.productName = productName
        self.subevent = subevent
        self.questionsToAsk = questionsToAsk
    }

    /// Paid, or pending and valid before payment.
    public var hasValidStatus: Bool {
        orderStatus == .paid || (orderStatus == .pending && validIfPending)
    }
}

/// An earlier movement of a ticket on a check-in list, from any device: which way, and who,
/// where and when (for "already checked in").
public struct ListMovement: Sendable, Hashable, Codable {
    public var direction: Direction
    public var prior: PriorCheckIn

    public var at: Timestamp { prior.at }

    public init(direction: Direction, prior: PriorCheckIn) {
        self.direction = direction
        self.prior = prior
    }
}
