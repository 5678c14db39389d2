import CheckInCore
import GRDB
import HubAPI
import RosterCSV

/// The dashboard's audited changes on SQLite (``AdminRepository``): each change and its entry in
/// `organizer_actions` are one write transaction.
extension SQLiteHubStore {
    public func createEvent(_ event: EventSummary, audit: OrganizerAction) async throws {
        try await insertEvent(event, audit: audit)
    }

    public func updateEvent(_ event: EventSummary, audit: OrganizerAction) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE events SET name = ?, starts_at = ?, ends_at = ?, time_zone = ?, window_ms = ?, undo_ms = ? WHERE id = ?",
                arguments: [event.name, event.startsAt?.milliseconds, event.endsAt?.milliseconds, event.timeZone,
                            event.toleranceWindowMilliseconds, event.stationUndoMilliseconds, event.id])
            guard db.changesCount > 0 else { throw HubStoreError.unknownEvent(event.id) }
            try Self.insertAction(db, audit)
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
        try await pool.write { db in
            try Self.requireEvent(db, event)
            guard let info = try Self.account(db, email: email) else { throw HubStoreError.unknownStaff(email) }
            try db.execute(
                sql: "INSERT INTO event_staff (event_id, staff_id, assigned_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                arguments: [event, info.id, now.milliseconds])
            if db.changesCount > 0 { try Self.insertAction(db, audit) }
            return info
        }
    }

    public func unassign(event: String, email: String, audit: OrganizerAction) async throws -> Bool {
        try await pool.write { db in
            guard let info = try Self.account(db, email: email) else { throw HubStoreError.unknownStaff(email) }
            try db.execute(sql: "DELETE FROM event_staff WHERE event_id = ? AND staff_id = ?", arguments: [event, info.id])
            guard db.changesCount > 0 else { return false }
            try Self.insertAction(db, audit)
            return true
        }
    }

    public func change(staff email: String, _ change: StaffChange, now: Timestamp, audit: OrganizerAction) async throws -> [SessionSummary] {
        try await apply(change, staff: email, now: now, audit: audit)
    }

    public func revokeSession(id: String, now: Timestamp, audit: OrganizerAction) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", arguments: [now.milliseconds, id])
            guard db.changesCount > 0 else { return false }
            try Self.insertAction(db, audit)
            return true
        }
    }

    public func accessTypes(event: String) async throws -> [AccessType] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM access_types WHERE event_id = ? ORDER BY name, id", arguments: [event]).map { row in
                AccessType(id: row["id"], name: row["name"], reentry: row["reentry"],
                           validFrom: (row["valid_from"] as Int64?).map(Timestamp.init(milliseconds:)),
                           validUntil: (row["valid_until"] as Int64?).map(Timestamp.init(milliseconds:)))
            }
        }
    }

    public func accountActions() async throws -> [OrganizerAction] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM organizer_actions WHERE event_id IS NULL ORDER BY id").map { row in
                OrganizerAction(eventID: nil, actorID: row["actor_id"], actorName: row["actor_name"],
                                kind: OrganizerAction.Kind(rawValue: row["kind"]) ?? .staffAdded, subject: row["subject"],
                                detail: row["detail"], at: Timestamp(milliseconds: row["at"]))
            }
        }
    }
}
