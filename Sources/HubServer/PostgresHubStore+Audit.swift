import CheckInCore
import HubAPI
import Logging
import PostgresNIO

/// The hub's log of organizer actions on PostgreSQL (0008_organizer_actions.sql).
extension PostgresHubStore {
    /// Writes `action` inside the caller's transaction.
    static func insertAction(_ connection: PostgresConnection, _ action: OrganizerAction, logger: Logger) async throws {
        try await connection.query("""
            INSERT INTO organizer_actions (event_id, actor_id, actor_name, kind, subject, detail, at)
            VALUES (\(action.eventID), \(action.actorID), \(action.actorName), \(action.kind.rawValue), \(action.subject),
                \(action.detail), \(action.at.milliseconds))
            """, logger: logger)
    }

    public func recordAction(_ action: OrganizerAction) async throws {
        try await transaction { connection in try await Self.insertAction(connection, action, logger: logger) }
    }

    public func organizerActions(event: String) async throws -> [OrganizerAction] {
        try await rows("SELECT * FROM organizer_actions WHERE event_id = \(event) ORDER BY id").map { row in
            OrganizerAction(eventID: try row["event_id"].decode(String?.self), actorID: try row["actor_id"].decode(String.self),
                            actorName: try row["actor_name"].decode(String.self),
                            kind: OrganizerAction.Kind(rawValue: try row["kind"].decode(String.self)) ?? .eventEdited,
                            subject: try row["subject"].decode(String.self), detail: try row["detail"].decode(String.self),
                            at: Timestamp(milliseconds: try row["at"].decode(Int64.self)))
        }
    }
}
