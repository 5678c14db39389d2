import CheckInCore
import GRDB
import HubAPI

/// Per-event access and the staff lifecycle on SQLite.
extension SQLiteHubStore {
    public func events(visibleTo staff: StaffInfo) async throws -> [EventSummary] {
        guard !EventAccess.visible(to: staff.role, assigned: false) else { return try await events() }
        return try await pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT e.* FROM events e JOIN event_staff a ON a.event_id = e.id AND a.staff_id = ? ORDER BY e.starts_at, e.id
                """, arguments: [staff.id]).map(Self.event)
        }
    }

    public func event(id: String, visibleTo staff: StaffInfo) async throws -> EventSummary? {
        try await pool.read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT e.*, EXISTS (SELECT 1 FROM event_staff a WHERE a.event_id = e.id AND a.staff_id = ?) AS assigned
                FROM events e WHERE e.id = ?
                """, arguments: [staff.id, id])
            else { return nil }
            return EventAccess.visible(to: staff.role, assigned: row["assigned"]) ? Self.event(row) : nil
        }
    }

    public func assign(event: String, emails: [String], now: Timestamp) async throws -> [StaffInfo] {
        try await pool.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM events WHERE id = ?", arguments: [event]) == true else {
                throw HubStoreError.unknownEvent(event)
            }
            var assigned: [StaffInfo] = []
            for email in emails {
                guard let info = try Self.account(db, email: email) else { throw HubStoreError.unknownStaff(email) }
                try db.execute(
                    sql: "INSERT INTO event_staff (event_id, staff_id, assigned_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    arguments: [event, info.id, now.milliseconds])
                assigned.append(info)
            }
            return assigned
        }
    }

    public func unassign(event: String, emails: [String]) async throws -> Int {
        try await pool.write { db in
            var ended = 0
            for email in emails {
                guard let info = try Self.account(db, email: email) else { throw HubStoreError.unknownStaff(email) }
                try db.execute(sql: "DELETE FROM event_staff WHERE event_id = ? AND staff_id = ?", arguments: [event, info.id])
                ended += db.changesCount
            }
            return ended
        }
    }

    public func staffAccounts(event: String?) async throws -> [StaffAccount] {
        try await pool.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT st.*, (SELECT group_concat(a.event_id, char(10)) FROM (SELECT event_id FROM event_staff WHERE staff_id = st.id ORDER BY event_id) a) AS events
                FROM staff st WHERE st.removed_at IS NULL
                    AND (? IS NULL OR st.role = 'organizer' OR EXISTS (SELECT 1 FROM event_staff x WHERE x.staff_id = st.id AND x.event_id = ?))
                ORDER BY lower(st.email)
                """, arguments: [event, event])
            return rows.map { row in
                StaffAccount(
                    info: Self.staffInfo(row), disabled: (row["disabled_at"] as Int64?) != nil,
                    events: (row["events"] as String?).map { $0.split(separator: "\n").map(String.init) } ?? [])
            }
        }
    }

    public func change(staff email: String, _ change: StaffChange, now: Timestamp) async throws -> [SessionSummary] {
        try await apply(change, staff: email, now: now, audit: nil)
    }

    /// Applies the change, and writes `audit` in the same transaction.
    func apply(_ change: StaffChange, staff email: String, now: Timestamp, audit: OrganizerAction?) async throws -> [SessionSummary] {
        try await pool.write { db in
            guard let info = try Self.account(db, email: email) else { throw HubStoreError.unknownStaff(email) }
            var revoked: [SessionSummary] = []
            if change.revokesSessions {
                revoked = try Row.fetchAll(db, sql: """
                    SELECT s.*, st.email FROM sessions s JOIN staff st ON st.id = s.staff_id
                    WHERE s.staff_id = ? AND s.revoked_at IS NULL ORDER BY s.created_at
                    """, arguments: [info.id]).map(Self.sessionSummary)
                try db.execute(sql: "UPDATE sessions SET revoked_at = ? WHERE staff_id = ? AND revoked_at IS NULL", arguments: [now.milliseconds, info.id])
            }
            switch change {
            case .disable:
                try db.execute(sql: "UPDATE staff SET disabled_at = ? WHERE id = ?", arguments: [now.milliseconds, info.id])
            case .enable:
                try db.execute(sql: "UPDATE staff SET disabled_at = NULL WHERE id = ?", arguments: [info.id])
            case .remove:
                try db.execute(sql: "DELETE FROM event_staff WHERE staff_id = ?", arguments: [info.id])
                try db.execute(
                    sql: "UPDATE staff SET removed_at = ?, email = ?, password_hash = ? WHERE id = ?",
                    arguments: [now.milliseconds, StaffChange.removedEmail(staffID: info.id), StaffChange.lockedPasswordHash, info.id])
            case .password(let hash):
                try db.execute(sql: "UPDATE staff SET password_hash = ? WHERE id = ?", arguments: [hash, info.id])
            }
            if let audit { try Self.insertAction(db, audit) }
            return revoked
        }
    }

    public func upgradePasswordHash(staffID: String, _ hash: String) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE staff SET password_hash = ? WHERE id = ?", arguments: [hash, staffID])
        }
    }

    /// The account with this e-mail (any case), disabled or not; never a removed one.
    static func account(_ db: Database, email: String) throws -> StaffInfo? {
        try Row.fetchOne(
            db, sql: "SELECT * FROM staff WHERE lower(email) = lower(?) AND removed_at IS NULL ORDER BY id LIMIT 1", arguments: [email]
        ).map(staffInfo)
    }

    static func staffInfo(_ row: Row) -> StaffInfo {
        StaffInfo(id: row["id"], email: row["email"], name: row["name"], role: StaffRole(rawValue: row["role"]) ?? .staff)
    }
}
