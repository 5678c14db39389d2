import CheckInCore
import GRDB

extension SQLiteHubStore {
    /// The guest columns holding a ticket's facts (0006_ticket_facts.sql), in this order.
    static let factColumns = "ticket_valid_from, ticket_valid_until, attention, order_code, checked_in_before"

    /// A ticket's facts from a row selected with ``factColumns``: by name, or from position
    /// `start` on (roster pages read columns by position).
    static func facts(_ row: Row, from start: Int? = nil) -> TicketFacts {
        func instant(_ value: Int64?) -> Timestamp? { value.map(Timestamp.init(milliseconds:)) }
        if let start {
            return TicketFacts(validFrom: instant(row[start]), validUntil: instant(row[start + 1]), attention: row[start + 2],
                               orderCode: row[start + 3], checkedInBefore: instant(row[start + 4]))
        }
        return TicketFacts(validFrom: instant(row["ticket_valid_from"]), validUntil: instant(row["ticket_valid_until"]),
                           attention: row["attention"], orderCode: row["order_code"], checkedInBefore: instant(row["checked_in_before"]))
    }
}
