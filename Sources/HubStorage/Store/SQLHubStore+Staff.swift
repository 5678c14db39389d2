import CheckInCore
import HubAPI
import HubCore

/// Staff accounts, assignments and their lifecycle (``StaffRepository``).
extension SQLHubStore {
    public func addStaff(_ staff: StaffInfo, passwordHash: String, audit: OrganizerAction?) async throws {
        do {
            try await database.write(changing: nil) { connection in
                // Sign-in ignores the e-mail's case, so two accounts must not differ by case alone.
                let added = try await connection.exists("""
                    INSERT INTO staff (id, email, name, role, password_hash)
                    SELECT \(staff.id), \(staff.email), \(staff.name), \(staff.role.rawValue), \(passwordHash)
                    WHERE NOT EXISTS (SELECT 1 FROM staff WHERE lower(email) = lower(\(staff.email)))
                    RETURNING id
                    """)
                guard added else { throw HubStoreError.duplicateStaff(staff.email) }
                try await Self.record(audit, on: connection)
            }
        } catch is SQLConstraintViolation {
            // Another writer added the same e-mail between the check and the insert.
            throw HubStoreError.duplicateStaff(staff.email)
        }
    }

    public func staff(email: String) async throws -> (info: StaffInfo, passwordHash: String)? {
        try await database.rows("""
            SELECT * FROM staff WHERE lower(email) = lower(\(email)) AND disabled_at IS NULL AND removed_at IS NULL ORDER BY id LIMIT 1
            """) { (info: try StaffInfo(row: $0), passwordHash: try $0.text("password_hash")) }.first
    }

    public func assign(event: String, emails: [String], now: Timestamp,
                       audit: (@Sendable (StaffInfo) -> OrganizerAction)?) async throws -> [StaffInfo] {
        try await database.write(changing: nil) { connection in
            try await Self.requireEvent(event, on: connection)
            var assigned: [StaffInfo] = []
            for email in emails {
                let info = try await Self.requireAccount(email: email, on: connection)
                if try await connection.exists("""
                    INSERT INTO event_staff (event_id, staff_id, assigned_at) VALUES (\(event), \(info.id), \(now))
                    ON CONFLICT DO NOTHING RETURNING staff_id
                    """) {
                    try await Self.record(audit?(info), on: connection)
                }
                assigned.append(info)
            }
            return assigned
        }
    }

    public func unassign(event: String, emails: [String], audit: (@Sendable (StaffInfo) -> OrganizerAction)?) async throws -> Int {
        try await database.write(changing: nil) { connection in
            var ended = 0
            for email in emails {
                let info = try await Self.requireAccount(email: email, on: connection)
                if try await connection.exists("DELETE FROM event_staff WHERE event_id = \(event) AND staff_id = \(info.id) RETURNING staff_id") {
                    try await Self.record(audit?(info), on: connection)
                    ended += 1
                }
            }
            return ended
        }
    }

    public func staffAccounts(event: String?) async throws -> [StaffAccount] {
        let events = database.dialect.joinedLines("event_id", from: "SELECT event_id FROM event_staff WHERE staff_id = st.id ORDER BY event_id")
        return try await database.rows("""
            SELECT st.*, \(raw: events) AS events
            FROM staff st WHERE st.removed_at IS NULL
                AND (CAST(\(event) AS TEXT) IS NULL OR st.role = 'organizer'
                     OR EXISTS (SELECT 1 FROM event_staff x WHERE x.staff_id = st.id AND x.event_id = \(event)))
            ORDER BY lower(st.email)
            """) { row in
            StaffAccount(info: try StaffInfo(row: row), disabled: try row.optionalInteger("disabled_at") != nil,
                         events: (try row.optionalText("events") ?? "").split(separator: "\n").map(String.init))
        }
    }

    public func change(staff email: String, _ change: StaffChange, now: Timestamp, audit: OrganizerAction?) async throws -> [SessionSummary] {
        try await database.write(changing: nil) { connection in
            let info = try await Self.requireAccount(email: email, on: connection)
            var revoked: [SessionSummary] = []
            if change.revokesSessions {
                revoked = try await connection.rows("""
                    SELECT s.*, st.email FROM sessions s JOIN staff st ON st.id = s.staff_id
                    WHERE s.staff_id = \(info.id) AND s.revoked_at IS NULL ORDER BY s.created_at
                    """) { try SessionSummary(row: $0) }
                try await connection.execute("UPDATE sessions SET revoked_at = \(now) WHERE staff_id = \(info.id) AND revoked_at IS NULL")
            }
            switch change {
            case .disable:
                try await connection.execute("UPDATE staff SET disabled_at = \(now) WHERE id = \(info.id)")
            case .enable:
                try await connection.execute("UPDATE staff SET disabled_at = NULL WHERE id = \(info.id)")
            case .remove:
                try await connection.execute("DELETE FROM event_staff WHERE staff_id = \(info.id)")
                try await connection.execute("""
                    UPDATE staff SET removed_at = \(now), email = \(StaffChange.removedEmail(staffID: info.id)),
                        password_hash = \(StaffChange.lockedPasswordHash)
                    WHERE id = \(info.id)
                    """)
            case .password(let hash):
                try await connection.execute("UPDATE staff SET password_hash = \(hash) WHERE id = \(info.id)")
            }
            try await Self.record(audit, on: connection)
            return revoked
        }
    }

    public func upgradePasswordHash(staffID: String, _ hash: String) async throws {
        try await database.execute("UPDATE staff SET password_hash = \(hash) WHERE id = \(staffID)")
    }

    /// The account with this e-mail (any case), disabled or not, never a removed one; throws
    /// ``HubStoreError/unknownStaff(_:)`` without one.
    static func requireAccount(email: String, on connection: any SQLConnection) async throws -> StaffInfo {
        guard let info = try await connection.row("""
            SELECT * FROM staff WHERE lower(email) = lower(\(email)) AND removed_at IS NULL ORDER BY id LIMIT 1
            """, { try StaffInfo(row: $0) })
        else { throw HubStoreError.unknownStaff(email) }
        return info
    }
}
