import CheckInCore
import PostgresNIO

extension PostgresHubStore {
    /// A ticket's facts from a guest row holding the columns of 0006_ticket_facts.sql.
    static func facts(_ row: PostgresRandomAccessRow) throws -> TicketFacts {
        func instant(_ column: String) throws -> Timestamp? { try row[column].decode(Int64?.self).map(Timestamp.init(milliseconds:)) }
        return TicketFacts(validFrom: try instant("ticket_valid_from"), validUntil: try instant("ticket_valid_until"),
                           attention: try row["attention"].decode(String?.self), orderCode: try row["order_code"].decode(String.self),
                           checkedInBefore: try instant("checked_in_before"))
    }
}
