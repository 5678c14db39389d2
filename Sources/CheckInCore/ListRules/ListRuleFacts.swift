import Foundation

/// What a check-in list's rules may ask about one entry (pretix's rule variables): the ticket,
/// the door, the time, and the ticket's movements on the list at every door the station knows of.
public struct ListRuleFacts: Sendable {
    /// The ticket's product and variation as the rules name them (pretix: the item's and variation's ids).
    public var product: String
    public var variation: String?
    /// The gate this door belongs to, if any.
    public var gate: String?
    public var now: Timestamp
    /// The event's time zone: "today", days and times of day are the event's.
    public let timeZone: TimeZone
    /// The event's start, end and admission time (`buildTime` `date_from`, `date_to`, `date_admission`).
    public var eventStart: Timestamp?
    public var eventEnd: Timestamp?
    public var admission: Timestamp?
    /// The ticket's movements on the list before this one, not undone, in any order.
    public var movements: [(direction: Direction, at: Timestamp)]
    /// Days and times of day in the event's time zone, made once.
    let calendar: Calendar

    public init(product: String, variation: String? = nil, gate: String? = nil, now: Timestamp, timeZone: TimeZone,
                eventStart: Timestamp? = nil, eventEnd: Timestamp? = nil, admission: Timestamp? = nil,
                movements: [(direction: Direction, at: Timestamp)] = []) {
        self.product = product
        self.variation = variation
        self.gate = gate
        self.now = now
        self.timeZone = timeZone
        self.eventStart = eventStart
        self.eventEnd = eventEnd
        self.admission = admission
        self.movements = movements
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    var entries: [Timestamp] { movements.filter { $0.direction == .entry }.map(\.at) }

    /// The event's calendar day of `instant` (days are counted in the event's time zone).
    func day(_ instant: Timestamp) -> DateComponents {
        calendar.dateComponents([.year, .month, .day], from: instant.date)
    }

    /// Midnight of the event's day that holds `now`.
    var startOfToday: Timestamp {
        Timestamp(calendar.startOfDay(for: now.date))
    }

    /// ISO weekday of `now` in the event's time zone: 1 Monday … 7 Sunday.
    var isoWeekday: Int {
        let weekday = calendar.component(.weekday, from: now.date)  // 1 Sunday … 7 Saturday
        return weekday == 1 ? 7 : weekday - 1
    }
}
