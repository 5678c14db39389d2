import CheckInCore
import PretixClient

/// One check-in list a pretix device may use, with its event: what an operator chooses from
/// after scanning a device QR code (the event's dates say which is on now).
public struct PretixListChoice: Sendable, Hashable {
    public var event: String
    public var eventName: String
    public var timeZone: String
    public var startsAt: Timestamp?
    public var endsAt: Timestamp?
    public var list: Int
    public var listName: String

    public init(event: PretixEvent, list: PretixCheckInList) {
        self.event = event.slug
        eventName = event.name.text()
        timeZone = event.timezone
        startsAt = event.dateFrom.timestamp
        endsAt = event.dateTo?.timestamp
        self.list = list.id
        listName = list.name
    }

    /// "conference#12": the choice's key among the device's lists (a slug holds no `#`).
    public var id: String { "\(event)#\(list)" }
}

/// What a scanned device QR code came to: the station is connected to a list, or (someone at
/// the console to ask) pretix lets the device use several and the operator chooses.
public enum PretixHandshakeOutcome: Sendable {
    case connected(PretixLink)
    /// The device's lists, and the one pretix suggests for it now (`device/eventselection`).
    case choose([PretixListChoice], suggested: PretixListChoice?)
}
