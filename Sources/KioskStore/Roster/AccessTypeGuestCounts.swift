import CheckInCore
import GRDB

extension RosterStore {
    /// How many guests of the roster (not revoked) hold each access type, by access type id:
    /// the console preselects the type most guests hold for a walk-in.
    public func guestCountsByAccessType() throws(StoreError) -> [String: Int] {
        try requireUsable()
        return try wrap {
            try writer.read { db in
                let rows = try Row.fetchAll(db, sql: "SELECT access_type_id, COUNT(*) AS guests FROM guests WHERE NOT revoked GROUP BY access_type_id")
                return Dictionary(rows.map { ($0["access_type_id"] as String, $0["guests"] as Int) }, uniquingKeysWith: +)
            }
        }
    }
}
