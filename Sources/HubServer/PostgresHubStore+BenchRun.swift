import PostgresNIO

/// What `checkin-hub bench` leaves in a PostgreSQL database, taken out again when it ends (on
/// SQLite the bench's whole file is removed instead).
extension PostgresHubStore {
    /// Deletes the event `event` with every row of it, and the staff accounts `staffIDs` with
    /// their sessions, stations and actions, in one transaction.
    public func removeBenchRun(event: String, staffIDs: [String]) async throws {
        try await transaction { connection in
            for table in ["review_marks", "station_reports", "organizer_actions", "event_staff", "check_in_attempts", "walk_ins",
                          "undo_log", "check_ins", "guests", "access_types"] {
                try await connection.query(PostgresQuery(unsafeSQL: "DELETE FROM \(table) WHERE event_id = $1", binds: Self.binds([event])),
                                           logger: logger)
            }
            try await connection.query("DELETE FROM events WHERE id = \(event)", logger: logger)
            try await connection.query("DELETE FROM organizer_actions WHERE actor_id = ANY(\(staffIDs))", logger: logger)
            try await connection.query("""
                DELETE FROM stations WHERE registered_by = ANY(\(staffIDs))
                    OR session_id IN (SELECT id FROM sessions WHERE staff_id = ANY(\(staffIDs)))
                """, logger: logger)
            try await connection.query("DELETE FROM event_staff WHERE staff_id = ANY(\(staffIDs))", logger: logger)
            try await connection.query("DELETE FROM sessions WHERE staff_id = ANY(\(staffIDs))", logger: logger)
            try await connection.query("DELETE FROM staff WHERE id = ANY(\(staffIDs))", logger: logger)
        }
    }

    private static func binds(_ values: [String]) -> PostgresBindings {
        var binds = PostgresBindings()
        for value in values { binds.append(value) }
        return binds
    }
}
