import CheckInCore
import HubAPI
import HubServer

/// What the guest page says after one of its forms: the redirect carries this (`?done=…`) and
/// the page puts it in words from what the hub holds now, so a reload shows the same.
enum GuestNotice: String, Sendable, CaseIterable {
    case checkedIn = "checked-in"
    case alreadyCheckedIn = "already-checked-in"
    case duplicate
    case ticketRevoked = "ticket-revoked"
    case notValidHere = "not-valid-here"
    case outsideWindow = "outside-window"
    case unpaid
    case unapproved
    case notOnRoster = "not-on-roster"
    case revoked
    case restored
    case reasonMissing = "reason-missing"

    /// The notice for a manual check-in's answer.
    init(_ decision: Decision.Kind) {
        switch decision {
        case .admitted: self = .checkedIn
        case .alreadyCheckedIn: self = .alreadyCheckedIn
        case .duplicate: self = .duplicate
        case .revoked: self = .ticketRevoked
        case .notValidHere: self = .notValidHere
        case .outsideWindow: self = .outsideWindow
        case .unknownCode: self = .notOnRoster
        case .unpaid: self = .unpaid
        case .unapproved: self = .unapproved
        // The hub asks no ticket shop, evaluates no list rules and asks no questions: its manual check-ins never say these.
        case .needsOnline, .listRules, .questions: self = .notValidHere
        }
    }

    /// Whether it reports something refused (shown as a warning, not as done).
    var isRefusal: Bool {
        switch self {
        case .checkedIn, .revoked, .restored: false
        default: true
        }
    }

    /// In words.
    /// - Parameter admission: the guest's latest accepted entry not undone, from the history.
    func words(admission: GuestMovement?, facts: TicketFacts, time: WebTime) -> String {
        func clock(_ instant: Timestamp) -> String { String(time.dateTime(instant).suffix(5)) }
        func earlier() -> String {
            guard let admission else { return "" }
            return " at \(clock(admission.scannedAt)) at \(admission.station) by \(admission.operatorName)"
        }
        switch self {
        case .checkedIn: return "Checked in" + earlier() + "."
        case .alreadyCheckedIn: return "Not checked in again: already checked in" + earlier() + "."
        case .duplicate: return "Already checked in" + earlier() + " moments ago; nothing new recorded."
        case .ticketRevoked: return "Refused: the ticket is revoked. Restore it first if the guest may enter."
        case .notValidHere: return "Refused: this ticket's access type is not valid at this event."
        case .outsideWindow:
            let from = facts.validFrom.map { " from " + time.dateTime($0) } ?? ""
            let until = facts.validUntil.map { " until " + time.dateTime($0) } ?? ""
            let window = from + until
            return "Refused: the ticket is not valid at this time" + (window.isEmpty ? "" : " (valid\(window))") + "."
        case .unpaid: return "Refused: the ticket shop says the order is not paid yet. The next roster import after payment admits it."
        case .unapproved: return "Refused: the ticket shop says the order awaits the organizer's approval."
        case .notOnRoster: return "Refused: the guest is no longer on this event's roster."
        case .revoked: return "Ticket revoked. Stations refuse it once they next sync."
        case .restored: return "Ticket restored. Stations admit it again once they next sync."
        case .reasonMissing: return "Say why the ticket is revoked: the reason is kept in the log."
        }
    }
}
