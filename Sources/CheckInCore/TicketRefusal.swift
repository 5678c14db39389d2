/// Why the ticket shop does not admit a ticket at all, when it says (pretix's order and ticket
/// states): the door refuses it as revoked and tells staff why, so "please see staff" leads
/// somewhere (pay at the desk, wait for the organizer's approval, a new ticket).
public enum TicketRefusal: String, Sendable, Hashable, Codable, CaseIterable {
    case canceled
    case expired
    case blocked
    case unpaid
    case unapproved
    /// The ticket's product is not admitted at this door's list (pretix: `product`): decided
    /// ``Decision/notValidHere(accessType:)``.
    case product
    /// The ticket is for another date of an event series than this door's list (pretix:
    /// `invalid`): decided ``Decision/notValidHere(accessType:)``.
    case otherDate = "other_date"

    /// What staff read, after "Ticket not valid: ".
    public var words: String {
        switch self {
        case .canceled: "the order was canceled"
        case .expired: "the order expired unpaid"
        case .blocked: "the organizer blocked this ticket"
        case .unpaid: "the order is not paid yet"
        case .unapproved: "the order awaits the organizer's approval"
        case .product: "this ticket is not admitted at this entrance"
        case .otherDate: "the ticket is for another date"
        }
    }

    /// What "not valid for this entrance" names for a ticket of another date.
    public static let otherDateWords = "another date of the event"

    /// The refusal's title on the station: "Ticket not valid: the order is not paid yet — please see staff".
    public static func title(_ refusal: TicketRefusal?) -> String {
        refusal.map { "Ticket not valid: \($0.words) — please see staff" } ?? "Ticket revoked — please see staff"
    }
}
