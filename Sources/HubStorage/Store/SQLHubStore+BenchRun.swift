import HubAPI

/// What `checkin-hub bench` leaves in a shared database, taken out again when it ends (a
/// SQLite bench's whole file is removed instead; this serves both).
extension SQLHubStore {
    /// Deletes the event `event` with every row of it, and the staff accounts `staffIDs` with
    /// their sessions, stations and actions, in one transaction.
    public func removeBenchRun(event: String, staffIDs: [String]) async throws {
        let dialect = database.dialect
        try await database.write(changing: nil) { connection in
            for table in ["review_marks", "station_reports", "organizer_actions", "event_staff", "check_in_attempts", "walk_ins",
                          "undo_log", "check_ins", "guests", "access_types"] {
                try await connection.execute("DELETE FROM \(raw: table) WHERE event_id = \(event)")
            }
            try await connection.execute("DELETE FROM events WHERE id = \(event)")
            let staff = SQLValue.texts(staffIDs)
            try await connection.execute("DELETE FROM organizer_actions WHERE \(dialect.expression("actor_id", isIn: staff))")
            try await connection.execute("""
                DELETE FROM stations WHERE \(dialect.expression("registered_by", isIn: staff))
                    OR session_id IN (SELECT id FROM sessions WHERE \(dialect.expression("staff_id", isIn: staff)))
                """)
            for table in ["event_staff", "sessions"] {
                try await connection.execute("DELETE FROM \(raw: table) WHERE \(dialect.expression("staff_id", isIn: staff))")
            }
            try await connection.execute("DELETE FROM staff WHERE \(dialect.expression("id", isIn: staff))")
        }
    }
}
