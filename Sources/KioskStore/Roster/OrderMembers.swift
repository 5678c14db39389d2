import CheckInCore
import Foundation
import GRDB

extension RosterStore {
    /// The guests of the order of the guest holding `code` (the code's holder first, then the
    /// others by name), looked up by the order's keyed digest; just that guest when the ticket
    /// has no order, empty when no guest holds the code.
    public func orderMembers(code raw: String) throws(StoreError) -> [Guest] {
        try requireUsable()
        return try wrap {
            try writer.read { db in
                let policy = try KioskDatabase.policy(db)
                guard let code = TicketCode(normalizing: raw, caseInsensitive: policy.caseInsensitiveCodes),
                      let holder = try OpenedGuestRecord.fetchGuest(db, code: code) else { return [] }
                guard !holder.facts.orderCode.isEmpty else { return [holder] }
                let others = try OpenedGuestRecord.fetchAll(db, sql: """
                    SELECT \(OpenedGuestRecord.columns) FROM guests g
                    WHERE g.order_digest = (SELECT order_digest FROM guests WHERE id = ?) AND g.id <> ?
                    """, arguments: [holder.id, holder.id]).map(\.guest)
                return [holder] + others.sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
            }
        }
    }
}
