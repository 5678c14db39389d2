/// The decision for a scan on a check-in list of a ticketing system with orders, made at the
/// door without asking anyone, in the order pretix's own devices decide offline
/// (libpretixsync's `AsyncCheckProvider`), so the station and pretix agree on every ticket.
///
/// A pure function of its inputs, like ``CheckInRules``: the caller looks the code up, gathers
/// the ticket's movements on this list from every device (its own included), and records what
/// is decided.
public enum OrderCheckInRules {
    /// One scan at the door.
    public struct Attempt: Sendable, Hashable {
        public var direction: Direction
        public var at: Timestamp
        /// Staff confirmed "admit anyway?" for an unpaid ticket (honoured only where the list
        /// includes pending orders).
        public var admitUnpaid: Bool

        public init(direction: Direction = .entry, at: Timestamp, admitUnpaid: Bool = false) {
            self.direction = direction
            self.at = at
            self.admitUnpaid = admitUnpaid
        }
    }

    /// What the scanned code was found to be.
    public enum Lookup: Sendable, Hashable {
        /// Exactly one ticket holds it, with its movements on this list (any order).
        case ticket(OrderTicket, movements: [ListMovement])
        /// Several tickets hold it.
        case several(count: Int)
        /// No ticket holds it; whether the source lists it as revoked or blocked.
        case none(revoked: Bool, blocked: Bool)
    }

    /// Decides `attempt` on `list`.
    ///
    /// In order: an unknown code (revoked or blocked when the source lists it so), several
    /// tickets; then the order canceled or expired, the ticket blocked, an unpaid order awaiting
    /// approval, (entries) the ticket's validity window, a product the list does not admit,
    /// another date of a series, an unpaid order (admitted only when the list includes pending
    /// orders and staff confirmed); (entries) the list's rules and questions to ask, which only
    /// the source decides for now; last the entry rules: an exit always passes, an entry passes
    /// when the list allows multiple entries, or the ticket has no entries yet, or only exits,
    /// or its last movement was an exit and the list allows entry after exit. Otherwise it was
    /// already checked in, shown with its first movement.
    public static func decide(_ attempt: Attempt, lookup: Lookup, list: CheckInList) -> ListVerdict {
        let ticket: OrderTicket
        let movements: [ListMovement]
        switch lookup {
        case .none(let revoked, let blocked):
            return .refused(revoked ? .revoked : blocked ? .blocked : .unknownCode)
        case .several(let count):
            return .refused(.ambiguous(count: count))
        case .ticket(let found, let moved):
            ticket = found
            movements = moved
        }
        let entry = attempt.direction == .entry
        switch ticket.orderStatus {
        case .canceled, .expired: return .refused(.canceled)
        case .paid, .pending: break
        }
        if ticket.blocked { return .refused(.blocked) }
        if ticket.orderStatus != .paid && ticket.requiresApproval { return .refused(.unapproved) }
        if entry, !TicketFacts(validFrom: ticket.validFrom, validUntil: ticket.validUntil).isValid(at: attempt.at) {
            return .refused(.outsideWindow(validFrom: ticket.validFrom, validUntil: ticket.validUntil))
        }
        if !list.admits(product: ticket.product) { return .refused(.productNotOnList(product: ticket.productName)) }
        if let date = list.subevent, date != ticket.subevent { return .refused(.otherDate) }
        if !ticket.hasValidStatus && !(attempt.admitUnpaid && list.includesPending) {
            return .refused(.unpaid(admitAnyway: list.includesPending))
        }
        guard entry else { return .admitted }
        if list.hasRules { return .refused(.needsOnline(.rules)) }
        if !ticket.questionsToAsk.isEmpty { return .refused(.needsOnline(.questions(ticket.questionsToAsk))) }
        return entryRule(movements: movements, list: list)
    }

    /// Single, multiple, and entry after exit, from the ticket's movements on the list.
    static func entryRule(movements: [ListMovement], list: CheckInList) -> ListVerdict {
        // By time, an entry before an exit of the same millisecond (as ``CheckInRules`` orders).
        let ordered = movements.sorted { $0.at != $1.at ? $0.at < $1.at : ($0.direction == .entry && $1.direction == .exit) }
        guard let first = ordered.first, let last = ordered.last else { return .admitted }
        if list.allowsMultipleEntries || ordered.allSatisfy({ $0.direction == .exit }) { return .admitted }
        if list.allowsEntryAfterExit && last.direction == .exit { return .admitted }
        return .refused(.alreadyCheckedIn(first: first.prior))
    }
}
