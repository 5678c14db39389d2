import CheckInCore
import HubAPI
import Logging
import PostgresNIO
import RosterCSV

/// The dashboard's audited changes on PostgreSQL (``AdminRepository``): each change and its
/// entry in `organizer_actions` are one transaction.
extension PostgresHubStore {
    public func createEvent(_ event: EventSummary, audit: OrganizerAction) async throws {
        try await insertEvent(event, audit: audit)
    }

    public func updateEvent(_ event: EventSummary, audit: OrganizerAction) async throws {
        try await transaction { connection in
            let updated = try await rows("""
                UPDATE events SET name = \(event.name), starts_at = \(event.startsAt?.milliseconds), ends_at = \(event.endsAt?.milliseconds),
                    time_zone = \(event.timeZone), window_ms = \(event.toleranceWindowMilliseconds), undo_ms = \(event.stationUndoMilliseconds)
                WHERE id = \(event.id) RETURNING id
                """, on: connection)
            guard !updated.isEmpty else { throw HubStoreError.unknownEvent(event.id) }
            try await Self.insertAction(connection, audit, logger: logger)
        }
    }

    public func upsertAccessType(event: String, _ type: AccessType, audit: OrganizerAction) async throws {
        try await writeAccessType(event: event, type, audit: audit)
    }

    public func importRoster(event: String, rows: [RosterRow], replace: Bool,
                             audit: @escaping @Sendable (ImportSummary) -> OrganizerAction) async throws -> ImportSummary {
        try await writeRoster(event: event, rows: rows, replace: replace, audit: audit)
    }

    public func addStaff(_ staff: StaffInfo, passwordHash: String, audit: OrganizerAction) async throws {
        try await insertStaff(staff, passwordHash: passwordHash, audit: audit)
    }

    public func assign(event: String, email: String, now: Timestamp, audit: OrganizerAction) async throws -> StaffInfo {
        try await transaction { connection in
            try await requireEvent(event, on: connection)
            guard let info = try await account(email: email, on: connection) else { throw HubStoreError.unknownStaff(email) }
            let inserted = try await rows("""
                INSERT INTO event_staff (event_id, staff_id, assigned_at) VALUES (\(event), \(info.id), \(now.milliseconds))
                ON CONFLICT DO NOTHING RETURNING staff_id
                """, on: connection)
            if !inserted.isEmpty { try await Self.insertAction(connection, audit, logger: logger) }
            return info
        }
    }

    public func unassign(event: String, email: String, audit: OrganizerAction) async throws -> Bool {
        try await transaction { connection in
            guard let info = try await account(email: email, on: connection) else { throw HubStoreError.unknownStaff(email) }
            let ended = try await rows("""
                DELETE FROM event_staff WHERE event_id = \(event) AND staff_id = \(info.id) RETURNING staff_id
                """, on: connection)
            guard !ended.isEmpty else { return false }
            try await Self.insertAction(connection, audit, logger: logger)
            return true
        }
    }

    public func change(staff email: String, _ change: StaffChange, now: Timestamp, audit: OrganizerAction) async throws -> [SessionSummary] {
        try await apply(change, staff: email, now: now, audit: audit)
    }

    public func revokeSession(id: String, now: Timestamp, audit: OrganizerAction) async throws -> Bool {
        try await transaction { connection in
            let revoked = try await rows("""
                UPDATE sessions SET revoked_at = \(now.milliseconds) WHERE id = \(id) AND revoked_at IS NULL RETURNING id
                """, on: connection)
            guard !revoked.isEmpty else { return false }
            try await Self.insertAction(connection, audit, logger: logger)
            return true
        }
    }

    public func accessTypes(event: String) async throws -> [AccessType] {
        try await rows("SELECT * FROM access_types WHERE event_id = \(event) ORDER BY name, id").map { row in
            AccessType(id: try row["id"].decode(String.self), name: try row["name"].decode(String.self), reentry: try row["reentry"].decode(Bool.self),
                       validFrom: try row["valid_from"].decode(Int64?.self).map(Timestamp.init(milliseconds:)),
                       validUntil: try row["valid_until"].decode(Int64?.self).map(Timestamp.init(milliseconds:)))
        }
    }

    public func accountActions() async throws -> [OrganizerAction] {
        try await rows("SELECT * FROM organizer_actions WHERE event_id IS NULL ORDER BY id").map { row in
            OrganizerAction(eventID: nil, actorID: try row["actor_id"].decode(String.self), actorName: try row["actor_name"].decode(String.self),
                            kind: OrganizerAction.Kind(rawValue: try row["kind"].decode(String.self)) ?? .staffAdded,
                            subject: try row["subject"].decode(String.self), detail: try row["detail"].decode(String.self),
                            at: Timestamp(milliseconds: try row["at"].decode(Int64.self)))
        }
    }
}
