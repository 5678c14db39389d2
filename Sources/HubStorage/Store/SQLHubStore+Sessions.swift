import CheckInCore
import HubAPI
import HubCore

/// Sessions and station registrations (``SessionRepository``).
extension SQLHubStore {
    public func createSession(_ session: NewSession) async throws {
        try await database.execute("""
            INSERT INTO sessions (id, staff_id, access_hash, access_expires, refresh_hash, refresh_expires, created_at, last_used_at, ends_at)
            VALUES (\(session.id), \(session.staffID), \(session.tokens.accessHash), \(session.tokens.accessExpires), \(session.tokens.refreshHash),
                    \(session.tokens.refreshExpires), \(session.createdAt), \(session.createdAt), \(session.endsAt))
            """)
    }

    /// A session speaks for a device only while it holds that device's station registration.
    static let sessionSelect = """
        SELECT s.id AS session_id, s.ends_at, d.device_id, d.name AS station_name, st.id AS staff_id, st.email, st.name, st.role
        FROM sessions s JOIN staff st ON st.id = s.staff_id AND st.disabled_at IS NULL AND st.removed_at IS NULL
        LEFT JOIN stations d ON d.device_id = s.device_id AND d.session_id = s.id
        """

    public func session(accessHash: String, now: Timestamp) async throws -> AuthenticatedSession? {
        try await database.rows("""
            \(raw: Self.sessionSelect)
            WHERE s.access_hash = \(accessHash) AND s.revoked_at IS NULL AND s.access_expires > \(now) AND (s.ends_at IS NULL OR s.ends_at > \(now))
            """) { try AuthenticatedSession(row: $0) }.first
    }

    public func rotate(refreshHash: String, to tokens: NewTokens, now: Timestamp, graceMilliseconds: Int64) async throws -> AuthenticatedSession? {
        try await database.write(changing: nil) { connection -> AuthenticatedSession? in
            // Locked: two hubs answering two refreshes of one session decide one after the other.
            guard let row = try await connection.row("""
                SELECT id, refresh_hash = \(refreshHash) AS is_current, rotated_at, refresh_expires FROM sessions
                WHERE (refresh_hash = \(refreshHash) OR previous_refresh_hash = \(refreshHash)) AND revoked_at IS NULL
                    AND (ends_at IS NULL OR ends_at > \(now))\(raw: connection.dialect.words.forUpdate)
                """, { (id: try $0.text("id"), current: try $0.bool("is_current"), rotatedAt: try $0.optionalTime("rotated_at"),
                        expires: try $0.time("refresh_expires")) })
            else { return nil }
            switch RefreshRotation.verdict(presentedIsCurrent: row.current, rotatedAt: row.rotatedAt, refreshExpires: row.expires, now: now,
                                           graceMilliseconds: graceMilliseconds) {
            case .refuse:
                return nil
            case .revoke:
                try await connection.execute("UPDATE sessions SET revoked_at = \(now) WHERE id = \(row.id)")
                return nil
            case .rotate:
                try await connection.execute("""
                    UPDATE sessions SET previous_refresh_hash = refresh_hash, refresh_hash = \(tokens.refreshHash),
                        refresh_expires = \(tokens.refreshExpires), access_hash = \(tokens.accessHash), access_expires = \(tokens.accessExpires),
                        last_used_at = \(now), rotated_at = \(now)
                    WHERE id = \(row.id)
                    """)
                return try await connection.row("\(raw: Self.sessionSelect) WHERE s.id = \(row.id)") { try AuthenticatedSession(row: $0) }
            }
        }
    }

    public func revokeSession(id: String, now: Timestamp, audit: OrganizerAction?) async throws -> Bool {
        try await database.write(changing: nil) { connection in
            let revoked = try await connection.exists("UPDATE sessions SET revoked_at = \(now) WHERE id = \(id) AND revoked_at IS NULL RETURNING id")
            if revoked { try await Self.record(audit, on: connection) }
            return revoked
        }
    }

    public func sessions() async throws -> [SessionSummary] {
        try await database.rows("SELECT s.*, st.email FROM sessions s JOIN staff st ON st.id = s.staff_id ORDER BY s.created_at") {
            try SessionSummary(row: $0)
        }
    }

    public func registerStation(_ claim: StationClaim) async throws -> StationClaim.Outcome {
        try await database.write(changing: nil) { connection -> StationClaim.Outcome in
            // A new id is inserted outright; a known one is locked and judged, so two hubs taking
            // claims on one id at once decide them one after the other.
            let inserted = try await connection.exists("""
                INSERT INTO stations (device_id, secret_hash, name, registered_by, registered_at, session_id)
                VALUES (\(claim.deviceID), \(claim.secretHash), \(claim.name), \(claim.staffID), \(claim.now), \(claim.sessionID))
                ON CONFLICT (device_id) DO NOTHING RETURNING device_id
                """)
            if !inserted {
                let stored = try await connection.row("""
                    SELECT secret_hash FROM stations WHERE device_id = \(claim.deviceID)\(raw: connection.dialect.words.forUpdate)
                    """) { try $0.optionalText("secret_hash") }
                guard StationClaim.decide(existingSecretHash: stored, claimSecretHash: claim.secretHash) == .registered else { return .deviceTaken }
                try await connection.execute("""
                    UPDATE stations SET secret_hash = \(claim.secretHash), name = \(claim.name), registered_by = \(claim.staffID),
                        registered_at = \(claim.now), session_id = \(claim.sessionID)
                    WHERE device_id = \(claim.deviceID)
                    """)
            }
            try await connection.execute("""
                UPDATE sessions SET device_id = NULL, station_name = NULL WHERE device_id = \(claim.deviceID) AND id <> \(claim.sessionID)
                """)
            try await connection.execute("UPDATE sessions SET device_id = \(claim.deviceID), station_name = \(claim.name) WHERE id = \(claim.sessionID)")
            return .registered
        }
    }
}
