import CheckInCore
import HubAPI
import PostgresNIO

/// Per-event access and the staff lifecycle on PostgreSQL.
extension PostgresHubStore {
    public func events(visibleTo staff: StaffInfo) async throws -> [EventSummary] {
        guard !EventAccess.visible(to: staff.role, assigned: false) else { return try await events() }
        return try await rows("""
            SELECT e.* FROM events e JOIN event_staff a ON a.event_id = e.id AND a.staff_id = \(staff.id) ORDER BY e.starts_at, e.id
            """).map(Self.event)
    }

    public func event(id: String, visibleTo staff: StaffInfo) async throws -> EventSummary? {
        guard let row = try await rows("""
            SELECT e.*, EXISTS (SELECT 1 FROM event_staff a WHERE a.event_id = e.id AND a.staff_id = \(staff.id)) AS assigned
            FROM events e WHERE e.id = \(id)
            """).first
        else { return nil }
        return EventAccess.visible(to: staff.role, assigned: try row["assigned"].decode(Bool.self)) ? try Self.event(row) : nil
    }

    public func assign(event: String, emails: [String], now: Timestamp) async throws -> [StaffInfo] {
        try await transaction { connection in
            try await requireEvent(event, on: connection)
            var assigned: [StaffInfo] = []
            for email in emails {
                guard let info = try await account(email: email, on: connection) else { throw HubStoreError.unknownStaff(email) }
                try await connection.query("""
                    INSERT INTO event_staff (event_id, staff_id, assigned_at) VALUES (\(event), \(info.id), \(now.milliseconds)) ON CONFLICT DO NOTHING
                    """, logger: logger)
                assigned.append(info)
            }
            return assigned
        }
    }

    public func unassign(event: String, emails: [String]) async throws -> Int {
        try await transaction { connection in
            var ended = 0
            for email in emails {
                guard let info = try await account(email: email, on: connection) else { throw HubStoreError.unknownStaff(email) }
                ended += try await rows("""
                    DELETE FROM event_staff WHERE event_id = \(event) AND staff_id = \(info.id) RETURNING staff_id
                    """, on: connection).count
            }
            return ended
        }
    }

    public func staffAccounts(event: String?) async throws -> [StaffAccount] {
        try await rows("""
            SELECT st.*, ARRAY(SELECT a.event_id FROM event_staff a WHERE a.staff_id = st.id ORDER BY a.event_id) AS events
            FROM staff st WHERE st.removed_at IS NULL
                AND (\(event)::text IS NULL OR st.role = 'organizer'
                     OR EXISTS (SELECT 1 FROM event_staff x WHERE x.staff_id = st.id AND x.event_id = \(event)))
            ORDER BY lower(st.email)
            """).map { row in
            StaffAccount(
                info: try Self.staffInfo(row), disabled: try row["disabled_at"].decode(Int64?.self) != nil,
                events: try row["events"].decode([String].self))
        }
    }

    public func change(staff email: String, _ change: StaffChange, now: Timestamp) async throws -> [SessionSummary] {
        try await apply(change, staff: email, now: now, audit: nil)
    }

    /// Applies the change, and writes `audit` in the same transaction.
    func apply(_ change: StaffChange, staff email: String, now: Timestamp, audit: OrganizerAction?) async throws -> [SessionSummary] {
        try await transaction { connection in
            guard let info = try await account(email: email, on: connection) else { throw HubStoreError.unknownStaff(email) }
            var revoked: [SessionSummary] = []
            if change.revokesSessions {
                revoked = try await rows("""
                    SELECT s.*, st.email FROM sessions s JOIN staff st ON st.id = s.staff_id
                    WHERE s.staff_id = \(info.id) AND s.revoked_at IS NULL ORDER BY s.created_at
                    """, on: connection).map(Self.sessionSummary)
                try await connection.query(
                    "UPDATE sessions SET revoked_at = \(now.milliseconds) WHERE staff_id = \(info.id) AND revoked_at IS NULL", logger: logger)
            }
            switch change {
            case .disable:
                try await connection.query("UPDATE staff SET disabled_at = \(now.milliseconds) WHERE id = \(info.id)", logger: logger)
            case .enable:
                try await connection.query("UPDATE staff SET disabled_at = NULL WHERE id = \(info.id)", logger: logger)
            case .remove:
                try await connection.query("DELETE FROM event_staff WHERE staff_id = \(info.id)", logger: logger)
                let removedEmail = StaffChange.removedEmail(staffID: info.id), locked = StaffChange.lockedPasswordHash
                try await connection.query("""
                    UPDATE staff SET removed_at = \(now.milliseconds), email = \(removedEmail), password_hash = \(locked) WHERE id = \(info.id)
                    """, logger: logger)
            case .password(let hash):
                try await connection.query("UPDATE staff SET password_hash = \(hash) WHERE id = \(info.id)", logger: logger)
            }
            if let audit { try await Self.insertAction(connection, audit, logger: logger) }
            return revoked
        }
    }

    public func upgradePasswordHash(staffID: String, _ hash: String) async throws {
        try await client.query("UPDATE staff SET password_hash = \(hash) WHERE id = \(staffID)", logger: logger)
    }

    /// The account with this e-mail (any case), disabled or not; never a removed one.
    func account(email: String, on connection: PostgresConnection) async throws -> StaffInfo? {
        try await rows("""
            SELECT * FROM staff WHERE lower(email) = lower(\(email)) AND removed_at IS NULL ORDER BY id LIMIT 1
            """, on: connection).first.map(Self.staffInfo)
    }

    static func staffInfo(_ row: PostgresRandomAccessRow) throws -> StaffInfo {
        StaffInfo(
            id: try row["id"].decode(String.self), email: try row["email"].decode(String.self), name: try row["name"].decode(String.self),
            role: StaffRole(rawValue: try row["role"].decode(String.self)) ?? .staff)
    }
}
