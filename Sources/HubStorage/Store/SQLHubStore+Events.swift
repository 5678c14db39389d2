import CheckInCore
import HubAPI
import HubCore
import RosterCSV

/// Events, their access types and rosters (``EventRepository``).
extension SQLHubStore {
    public func createEvent(_ event: EventSummary, audit: OrganizerAction?) async throws {
        try await database.write(changing: nil) { connection in
            let created = try await connection.exists("""
                INSERT INTO events (id, name, starts_at, ends_at, time_zone, window_ms, undo_ms)
                VALUES (\(event.id), \(event.name), \(event.startsAt), \(event.endsAt), \(event.timeZone), \(event.toleranceWindowMilliseconds),
                    \(event.stationUndoMilliseconds))
                ON CONFLICT (id) DO NOTHING RETURNING id
                """)
            guard created else { throw HubStoreError.duplicateEvent(event.id) }
            try await Self.record(audit, on: connection)
        }
    }

    public func updateEvent(_ event: EventSummary, audit: OrganizerAction?) async throws {
        try await database.write(changing: nil) { connection in
            let updated = try await connection.exists("""
                UPDATE events SET name = \(event.name), starts_at = \(event.startsAt), ends_at = \(event.endsAt), time_zone = \(event.timeZone),
                    window_ms = \(event.toleranceWindowMilliseconds), undo_ms = \(event.stationUndoMilliseconds)
                WHERE id = \(event.id) RETURNING id
                """)
            guard updated else { throw HubStoreError.unknownEvent(event.id) }
            try await Self.record(audit, on: connection)
        }
    }

    public func event(id: String) async throws -> EventSummary? {
        try await database.rows("SELECT * FROM events WHERE id = \(id)") { try EventSummary(row: $0) }.first
    }

    public func events() async throws -> [EventSummary] {
        try await database.rows("SELECT * FROM events ORDER BY starts_at, id") { try EventSummary(row: $0) }
    }

    public func events(visibleTo staff: StaffInfo) async throws -> [EventSummary] {
        guard !EventAccess.visible(to: staff.role, assigned: false) else { return try await events() }
        return try await database.rows("""
            SELECT e.* FROM events e JOIN event_staff a ON a.event_id = e.id AND a.staff_id = \(staff.id) ORDER BY e.starts_at, e.id
            """) { try EventSummary(row: $0) }
    }

    public func event(id: String, visibleTo staff: StaffInfo) async throws -> EventSummary? {
        let found = try await database.rows("""
            SELECT e.*, EXISTS (SELECT 1 FROM event_staff a WHERE a.event_id = e.id AND a.staff_id = \(staff.id)) AS assigned
            FROM events e WHERE e.id = \(id)
            """) { (event: try EventSummary(row: $0), assigned: try $0.bool("assigned")) }.first
        guard let found, EventAccess.visible(to: staff.role, assigned: found.assigned) else { return nil }
        return found.event
    }

    public func upsertAccessType(event: String, _ type: AccessType, audit: OrganizerAction?) async throws {
        try await database.write(changing: event) { connection in
            try await Self.requireEvent(event, on: connection)
            try await connection.lockEvent(event)
            try await connection.execute("""
                INSERT INTO access_types (event_id, id, name, reentry, valid_from, valid_until, seq)
                VALUES (\(event), \(type.id), \(type.name), \(type.reentry), \(type.validFrom), \(type.validUntil), nextval('change_seq'))
                ON CONFLICT (event_id, id) DO UPDATE SET name = excluded.name, reentry = excluded.reentry,
                    valid_from = excluded.valid_from, valid_until = excluded.valid_until, seq = excluded.seq
                """)
            try await Self.record(audit, on: connection)
            try await connection.announce(event)
        }
    }

    public func accessTypes(event: String) async throws -> [AccessType] {
        try await database.rows("SELECT * FROM access_types WHERE event_id = \(event) ORDER BY name, id") { try AccessType(row: $0) }
    }

    public func deleteGuest(event: String, guestID: String) async throws -> Bool {
        try await database.write(changing: event) { connection in
            try await connection.lockEvent(event)
            let deleted = try await connection.exists("""
                UPDATE guests SET deleted = true, seq = nextval('change_seq') WHERE event_id = \(event) AND id = \(guestID) AND NOT deleted RETURNING id
                """)
            if deleted { try await connection.announce(event) }
            return deleted
        }
    }
}
