import GRDB

extension RosterStore {
    /// Guests from a roster imported on this station (`kiosk import`, the demo roster): not the
    /// hub's, not walk-ins. A station with any runs on its local roster without a hub.
    public func importedGuestCount() throws(StoreError) -> Int {
        try wrap {
            try writer.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM guests WHERE from_hub = 0 AND walk_in = 0") ?? 0
            }
        }
    }
}
