/// What ``OrderCheckInRules`` decided for one scan on a check-in list.
public enum ListVerdict: Sendable, Hashable {
    /// Let the ticket pass (an entry, or an exit recorded).
    case admitted
    case refused(ListRefusal)

    public var admits: Bool { self == .admitted }
}

/// Why a scan is refused on a check-in list, in the order the rules look (see
/// ``OrderCheckInRules/decide(_:lookup:list:)``).
public enum ListRefusal: Sendable, Hashable {
    /// No ticket holds this code.
    case unknownCode
    /// More than one ticket holds this code (in different events): the door cannot tell which.
    case ambiguous(count: Int)
    /// The code was replaced or withdrawn by the source (pretix's revoked secrets).
    case revoked
    /// The order is canceled or expired.
    case canceled
    /// The organizer blocked the ticket.
    case blocked
    /// The order is unpaid and awaits the organizer's approval.
    case unapproved
    /// Before the ticket's valid-from or after its valid-until (entries only).
    case outsideWindow(validFrom: Timestamp?, validUntil: Timestamp?)
    /// The ticket's product is not admitted by this list.
    case productNotOnList(product: String)
    /// The ticket is for another date of the event series than the list.
    case otherDate
    /// The order is not paid. `admitAnyway`: the list includes pending orders, so the door may
    /// admit it when staff confirm (the scan again with ``OrderCheckInRules/Attempt/admitUnpaid``).
    case unpaid(admitAnyway: Bool)
    /// The source alone can decide this entry for now: the list has rules, or the ticket has
    /// questions to ask at the door.
    case needsOnline(OnlineOnlyCheck)
    /// The ticket entered before and the list allows no further entry now; the first movement.
    case alreadyCheckedIn(first: PriorCheckIn)
}

/// Checks only the ticketing system makes until the station evaluates them itself.
public enum OnlineOnlyCheck: Sendable, Hashable, Codable {
    /// The list's own rules (pretix's JsonLogic check-in rules).
    case rules
    /// Questions to ask before admission (their identifiers).
    case questions([String])
    /// A ticket the station holds nothing about: a station whose device may not download the
    /// orders (pretix's "online, no orders" and kiosk profiles) checks unsigned tickets online.
    case ticket
}
