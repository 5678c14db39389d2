import CheckInCore
import GRDB
import HubAPI

/// The hub's log of organizer actions on SQLite (0008_organizer_actions.sql).
extension SQLiteHubStore {
    /// Writes `action` inside the caller's transaction.
    static func insertAction(_ db: Database, _ action: OrganizerAction) throws {
        try db.execute(
            sql: "INSERT INTO organizer_actions (event_id, actor_id, actor_name, kind, subject, detail, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            arguments: [action.eventID, action.actorID, action.actorName, action.kind.rawValue, action.subject, action.detail,
                        action.at.milliseconds])
    }

    public func recordAction(_ action: OrganizerAction) async throws {
        try await pool.write { db in try Self.insertAction(db, action) }
    }

    public func organizerActions(event: String) async throws -> [OrganizerAction] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM organizer_actions WHERE event_id = ? ORDER BY id", arguments: [event]).map { row in
                OrganizerAction(eventID: row["event_id"], actorID: row["actor_id"], actorName: row["actor_name"],
                                kind: OrganizerAction.Kind(rawValue: row["kind"]) ?? .eventEdited, subject: row["subject"],
                                detail: row["detail"], at: Timestamp(milliseconds: row["at"]))
            }
        }
    }
}
