import CheckInCore
import Foundation
import HubAPI
import Logging
import PostgresNIO
import RosterCSV

/// The hub on PostgreSQL, for large events and several hub processes behind a load balancer.
///
/// Two kinds of advisory transaction locks make it exact across hub processes:
/// - a **guest lock** per guest of a check-in batch or undo, taken first and in ascending key
///   order: a guest's decision (known keys, standing admissions) cannot change between reading
///   and writing, while batches of different guests are decided in parallel;
/// - the **event lock**, taken by every write to an event just before it writes and held until
///   commit: change sequence numbers (`seq`, from `change_seq`) then commit in order within an
///   event, so a roster cursor never skips a change that commits late.
/// Guest locks are always taken before the event lock, so the two cannot deadlock.
///
/// Every write to an event also sends `NOTIFY checkin_hub_changes, '<event id>'` in its
/// transaction: PostgreSQL delivers it only after the commit, to every hub listening
/// (``reportChanges(to:)``), so a held roster long-poll on any hub wakes for a change committed
/// through any other.
public final class PostgresHubStore: HubStore {
    public let kind = "postgres"
    let client: PostgresClient
    let logger: Logger
    let checkInStatistics = AnalyzeSchedule()
    /// For the one connection of this process that LISTENs (never one of the pool's: a pooled
    /// connection is handed to queries and closed at will).
    let listenerConfiguration: PostgresConnection.Configuration
    /// One connection at start, unnamed (see ``firstContact()``).
    let probeConfiguration: PostgresConnection.Configuration
    /// Where the database is, never with the password (logs and errors).
    let settingsDescription: String
    private let runner: Task<Void, Never>

    /// Connects to `postgres://USER@HOST[:PORT]/DATABASE[?sslmode=…&sslrootcert=…]`; the password
    /// and TLS as ``PostgresSettings`` reads them (never echoed: errors carry the URL redacted).
    public init(url: String, maximumConnections: Int = 20, passwordFile: String? = nil, logger: Logger) throws {
        let settings = try PostgresSettings.parse(url, passwordFile: passwordFile)
        logger.info("connecting to PostgreSQL", metadata: ["database": "\(settings)"])
        var configuration = try settings.clientConfiguration
        configuration.options.maximumConnections = maximumConnections
        var listener = try settings.connectionConfiguration
        probeConfiguration = listener
        settingsDescription = settings.description
        // Named, so an operator (or a test) can tell it apart in pg_stat_activity.
        listener.options.additionalStartupParameters = [("application_name", Self.listenerApplicationName)]
        listenerConfiguration = listener
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        runner = Task { await client.run() }
    }

    public func close() async {
        runner.cancel()
        _ = await runner.value
    }

    /// The event's write lock, held until the transaction ends.
    static func lockEvent(_ connection: PostgresConnection, _ event: String, logger: Logger) async throws {
        try await connection.query("SELECT pg_advisory_xact_lock(4242, hashtext(\(event)))", logger: logger)
    }

    /// Tells every listening hub, once this transaction commits, that `event` changed. (Sent with
    /// the transaction, so never seen before the commit; identical notices of one transaction
    /// are delivered once.)
    static func announce(_ connection: PostgresConnection, _ event: String, logger: Logger) async throws {
        try await connection.query("SELECT pg_notify(\(changeChannel), \(event))", logger: logger)
    }

    /// Locks these guests of the event until the transaction ends, in ascending key order so two
    /// batches sharing guests cannot deadlock. (Two-key and one-key advisory locks are distinct
    /// lock spaces, so guest keys never collide with the event lock; two guests hashing alike
    /// only wait for each other.)
    static func lockGuests(_ connection: PostgresConnection, _ event: String, _ guestIDs: some Sequence<String>, logger: Logger) async throws {
        let keys = Set(guestIDs.map { GuestLockKey.key(event: event, guest: $0) }).sorted()
        try await connection.query("SELECT count(pg_advisory_xact_lock(k)) FROM unnest(\(keys)::bigint[]) AS k", logger: logger)
    }

    public func migrate() async throws -> [String] {
        try await firstContact()
        return try await transaction { connection in
            // One hub migrates at a time; the others wait here and then find nothing to do.
            try await connection.query("SELECT pg_advisory_xact_lock(4242, 0)", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS hub_migrations (name text PRIMARY KEY, checksum text NOT NULL)", logger: logger)
            var applied: [String: String] = [:]
            for try await (name, checksum) in try await connection.query("SELECT name, checksum FROM hub_migrations", logger: logger).decode((String, String).self) {
                applied[name] = checksum
            }
            var now: [String] = []
            for migration in HubMigration.postgres {
                if let checksum = applied[migration.name] {
                    guard checksum == migration.checksum else { throw HubStoreError.migrationChecksumMismatch(migration.name) }
                    continue
                }
                for statement in Self.statements(migration.sql) {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO hub_migrations (name, checksum) VALUES (\(migration.name), \(migration.checksum))", logger: logger)
                now.append(migration.name)
            }
            return now
        }
    }

    /// The statements of a migration file (the extended protocol takes one at a time). Files keep
    /// `;` only at statement ends and `--` comments on their own lines.
    static func statements(_ sql: String) -> [String] {
        let lines = sql.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("--") }
        return lines.joined(separator: "\n").split(separator: ";").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    public func schemaVersion() async throws -> String {
        for try await name in try await client.query("SELECT coalesce(max(name), '') FROM hub_migrations", logger: logger).decode(String.self) {
            return name
        }
        return ""
    }

    // MARK: Administration

    public func createEvent(_ event: EventSummary) async throws { try await insertEvent(event, audit: nil) }

    /// Creates the event, and writes `audit` in the same transaction.
    func insertEvent(_ event: EventSummary, audit: OrganizerAction?) async throws {
        do {
            try await transaction { connection in
                try await connection.query("""
                    INSERT INTO events (id, name, starts_at, ends_at, time_zone, window_ms, undo_ms)
                    VALUES (\(event.id), \(event.name), \(event.startsAt?.milliseconds), \(event.endsAt?.milliseconds), \(event.timeZone),
                            \(event.toleranceWindowMilliseconds), \(event.stationUndoMilliseconds))
                    """, logger: logger)
                if let audit { try await Self.insertAction(connection, audit, logger: logger) }
            }
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw HubStoreError.duplicateEvent(event.id)
        }
    }

    static func event(_ row: PostgresRandomAccessRow) throws -> EventSummary {
        EventSummary(
            id: try row["id"].decode(String.self), name: try row["name"].decode(String.self),
            startsAt: try row["starts_at"].decode(Int64?.self).map(Timestamp.init(milliseconds:)),
            endsAt: try row["ends_at"].decode(Int64?.self).map(Timestamp.init(milliseconds:)),
            timeZone: try row["time_zone"].decode(String.self),
            toleranceWindowMilliseconds: try row["window_ms"].decode(Int64.self), stationUndoMilliseconds: try row["undo_ms"].decode(Int64.self))
    }

    func rows(_ query: PostgresQuery, on connection: PostgresConnection? = nil) async throws -> [PostgresRandomAccessRow] {
        let sequence = if let connection { try await connection.query(query, logger: logger) } else { try await client.query(query, logger: logger) }
        var result: [PostgresRandomAccessRow] = []
        for try await row in sequence { result.append(row.makeRandomAccess()) }
        return result
    }

    public func event(id: String) async throws -> EventSummary? {
        try await rows("SELECT * FROM events WHERE id = \(id)").first.map(Self.event)
    }

    public func events() async throws -> [EventSummary] {
        try await rows("SELECT * FROM events ORDER BY starts_at, id").map(Self.event)
    }

    func requireEvent(_ id: String, on connection: PostgresConnection? = nil) async throws {
        guard try await !rows("SELECT 1 FROM events WHERE id = \(id)", on: connection).isEmpty else { throw HubStoreError.unknownEvent(id) }
    }

    public func upsertAccessType(event: String, _ type: AccessType) async throws { try await writeAccessType(event: event, type, audit: nil) }

    /// Adds or changes the access type, and writes `audit` in the same transaction.
    func writeAccessType(event: String, _ type: AccessType, audit: OrganizerAction?) async throws {
        try await requireEvent(event)
        try await transaction { connection in
            try await Self.lockEvent(connection, event, logger: logger)
            try await connection.query("""
                INSERT INTO access_types (event_id, id, name, reentry, valid_from, valid_until)
                VALUES (\(event), \(type.id), \(type.name), \(type.reentry), \(type.validFrom?.milliseconds), \(type.validUntil?.milliseconds))
                ON CONFLICT (event_id, id) DO UPDATE SET name = excluded.name, reentry = excluded.reentry,
                    valid_from = excluded.valid_from, valid_until = excluded.valid_until, seq = nextval('change_seq')
                """, logger: logger)
            if let audit { try await Self.insertAction(connection, audit, logger: logger) }
            try await Self.announce(connection, event, logger: logger)
        }
    }

    public func importRoster(event: String, rows roster: [RosterRow], replace: Bool) async throws -> ImportSummary {
        try await writeRoster(event: event, rows: roster, replace: replace, audit: nil)
    }

    /// Imports the rows, and writes the entry `audit` makes of the summary in the same transaction.
    func writeRoster(event: String, rows roster: [RosterRow], replace: Bool,
                     audit: (@Sendable (ImportSummary) -> OrganizerAction)?) async throws -> ImportSummary {
        try await requireEvent(event)
        let summary = try await transaction { connection in
            try await Self.lockEvent(connection, event, logger: logger)
            var known: [String: [String]] = [:]
            for row in try await rows("""
                SELECT code, name, email, company, access_type_id, revoked, ticket_valid_from, ticket_valid_until, attention, order_code,
                    checked_in_before FROM guests WHERE event_id = \(event)
                """, on: connection) {
                known[try row["code"].decode(String.self)] = ImportSummary.values(
                    name: try row["name"].decode(String.self), email: try row["email"].decode(String.self),
                    company: try row["company"].decode(String.self), typeID: try row["access_type_id"].decode(String.self),
                    revoked: try row["revoked"].decode(Bool.self), facts: try Self.facts(row))
            }
            var summary = ImportSummary(imported: 0, updated: 0, unchanged: 0)
            var types: [String: String] = [:]
            var codes: [String] = [], names: [String] = [], emails: [String] = [], companies: [String] = [], typeIDs: [String] = []
            var revoked: [Bool] = []
            // PostgresNIO binds no arrays of optionals: absent instants go as Int64.min, an absent note as ''.
            var validFrom: [Int64] = [], validUntil: [Int64] = [], attention: [String] = [], orders: [String] = [], before: [Int64] = []
            for row in roster {
                let typeID = AccessType.identifier(forName: row.accessType)
                types[typeID] = types[typeID] ?? row.accessType
                let values = ImportSummary.values(name: row.name, email: row.email, company: row.company, typeID: typeID, revoked: row.revoked,
                                                  facts: row.facts)
                guard summary.count(values, old: known[row.code.value]) else { continue }
                known[row.code.value] = values
                codes.append(row.code.value); names.append(row.name); emails.append(row.email); companies.append(row.company); typeIDs.append(typeID)
                revoked.append(row.revoked)
                validFrom.append(row.facts.validFrom?.milliseconds ?? .min); validUntil.append(row.facts.validUntil?.milliseconds ?? .min)
                attention.append(row.facts.attentionNote ?? ""); orders.append(row.facts.orderCode)
                before.append(row.facts.checkedInBefore?.milliseconds ?? .min)
            }
            let typeKeys = Array(types.keys), typeNames = typeKeys.map { types[$0]! }
            try await connection.query("""
                INSERT INTO access_types (event_id, id, name)
                SELECT \(event), id, name FROM unnest(\(typeKeys)::text[], \(typeNames)::text[]) AS t(id, name)
                ON CONFLICT (event_id, id) DO NOTHING
                """, logger: logger)
            // In chunks: one statement per 5,000 guests keeps each bind message small.
            var start = 0
            while start < codes.count {
                let end = min(start + 5_000, codes.count)
                let c = Array(codes[start..<end]), n = Array(names[start..<end]), e = Array(emails[start..<end])
                let co = Array(companies[start..<end]), t = Array(typeIDs[start..<end]), r = Array(revoked[start..<end])
                let vf = Array(validFrom[start..<end]), vu = Array(validUntil[start..<end]), at = Array(attention[start..<end])
                let o = Array(orders[start..<end]), b = Array(before[start..<end])
                try await connection.query("""
                    INSERT INTO guests (event_id, id, code, name, email, company, access_type_id, revoked,
                        ticket_valid_from, ticket_valid_until, attention, order_code, checked_in_before)
                    SELECT \(event), code, code, name, email, company, type, revoked, NULLIF(valid_from, \(Int64.min)),
                        NULLIF(valid_until, \(Int64.min)), NULLIF(attention, ''), order_code, NULLIF(before, \(Int64.min))
                    FROM unnest(\(c)::text[], \(n)::text[], \(e)::text[], \(co)::text[], \(t)::text[], \(r)::boolean[],
                                \(vf)::bigint[], \(vu)::bigint[], \(at)::text[], \(o)::text[], \(b)::bigint[])
                        AS r(code, name, email, company, type, revoked, valid_from, valid_until, attention, order_code, before)
                    ON CONFLICT (event_id, code) DO UPDATE SET name = excluded.name, email = excluded.email, company = excluded.company,
                        access_type_id = excluded.access_type_id, revoked = excluded.revoked, deleted = false, seq = nextval('change_seq'),
                        ticket_valid_from = excluded.ticket_valid_from, ticket_valid_until = excluded.ticket_valid_until,
                        attention = excluded.attention, order_code = excluded.order_code, checked_in_before = excluded.checked_in_before
                    """, logger: logger)
                start = end
            }
            if replace {
                // A ticket refunded since the last export is simply missing from this one.
                let present = roster.map(\.code.value)
                summary.revokedMissing = try await rows("""
                    UPDATE guests SET revoked = true, seq = nextval('change_seq')
                    WHERE event_id = \(event) AND NOT revoked AND NOT walk_in AND NOT deleted AND code <> ALL(\(present)::text[])
                    RETURNING code
                    """, on: connection).map { try $0["code"].decode(String.self) }.sorted()
            }
            if !codes.isEmpty || !typeKeys.isEmpty || !summary.revokedMissing.isEmpty { try await Self.announce(connection, event, logger: logger) }
            if let audit { try await Self.insertAction(connection, audit(summary), logger: logger) }
            return summary
        }
        if summary.imported + summary.updated > 1_000 {
            // Fresh statistics before the doors open: with the new event's rows unknown to the
            // planner, check-in lookups by guest id picked the e-mail index and read the whole
            // event per batch (ingest fell to a third until autovacuum's analyze caught up).
            try await client.query("ANALYZE guests", logger: logger)
        }
        return summary
    }

    public func setRevoked(event: String, guestID: String, revoked: Bool) async throws -> Bool {
        try await transaction { connection in
            try await Self.lockEvent(connection, event, logger: logger)
            try await Self.announce(connection, event, logger: logger)
            return try await !rows("""
                UPDATE guests SET revoked = \(revoked), seq = nextval('change_seq') WHERE event_id = \(event) AND id = \(guestID) RETURNING id
                """, on: connection).isEmpty
        }
    }

    public func deleteGuest(event: String, guestID: String) async throws -> Bool {
        try await transaction { connection in
            try await Self.lockEvent(connection, event, logger: logger)
            try await Self.announce(connection, event, logger: logger)
            return try await !rows("""
                UPDATE guests SET deleted = true, seq = nextval('change_seq') WHERE event_id = \(event) AND id = \(guestID) AND NOT deleted RETURNING id
                """, on: connection).isEmpty
        }
    }

    public func addStaff(_ staff: StaffInfo, passwordHash: String) async throws { try await insertStaff(staff, passwordHash: passwordHash, audit: nil) }

    /// Adds the account, and writes `audit` in the same transaction.
    func insertStaff(_ staff: StaffInfo, passwordHash: String, audit: OrganizerAction?) async throws {
        do {
            try await transaction { connection in
                // Sign-in ignores the e-mail's case, so two accounts must not differ by case alone.
                let inserted = try await rows("""
                    INSERT INTO staff (id, email, name, role, password_hash)
                    SELECT \(staff.id), \(staff.email), \(staff.name), \(staff.role.rawValue), \(passwordHash)
                    WHERE NOT EXISTS (SELECT 1 FROM staff WHERE lower(email) = lower(\(staff.email)))
                    RETURNING id
                    """, on: connection)
                if inserted.isEmpty { throw HubStoreError.duplicateStaff(staff.email) }
                if let audit { try await Self.insertAction(connection, audit, logger: logger) }
            }
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw HubStoreError.duplicateStaff(staff.email)
        }
    }

    public func staff(email: String) async throws -> (info: StaffInfo, passwordHash: String)? {
        guard let row = try await rows("""
            SELECT * FROM staff WHERE lower(email) = lower(\(email)) AND disabled_at IS NULL AND removed_at IS NULL ORDER BY id LIMIT 1
            """).first else { return nil }
        return (try Self.staffInfo(row), try row["password_hash"].decode(String.self))
    }

    // MARK: Sessions

    public func createSession(_ session: NewSession) async throws {
        try await client.query("""
            INSERT INTO sessions (id, staff_id, access_hash, access_expires, refresh_hash, refresh_expires, created_at, last_used_at, ends_at)
            VALUES (\(session.id), \(session.staffID), \(session.tokens.accessHash), \(session.tokens.accessExpires.milliseconds),
                    \(session.tokens.refreshHash), \(session.tokens.refreshExpires.milliseconds), \(session.createdAt.milliseconds),
                    \(session.createdAt.milliseconds), \(session.endsAt.milliseconds))
            """, logger: logger)
    }

    private static func authenticated(_ row: PostgresRandomAccessRow) throws -> AuthenticatedSession {
        AuthenticatedSession(
            sessionID: try row["session_id"].decode(String.self),
            staff: StaffInfo(
                id: try row["staff_id"].decode(String.self), email: try row["email"].decode(String.self), name: try row["name"].decode(String.self),
                role: StaffRole(rawValue: try row["role"].decode(String.self)) ?? .staff),
            deviceID: try row["device_id"].decode(String?.self), stationName: try row["station_name"].decode(String?.self),
            endsAt: try row["ends_at"].decode(Int64?.self).map(Timestamp.init(milliseconds:)))
    }

    /// A session speaks for a device only while it holds that device's station registration.
    private static let sessionSelect = """
        SELECT s.id AS session_id, s.ends_at, d.device_id, d.name AS station_name, st.id AS staff_id, st.email, st.name, st.role
        FROM sessions s JOIN staff st ON st.id = s.staff_id AND st.disabled_at IS NULL AND st.removed_at IS NULL
        LEFT JOIN stations d ON d.device_id = s.device_id AND d.session_id = s.id
        """

    public func session(accessHash: String, now: Timestamp) async throws -> AuthenticatedSession? {
        var binds = PostgresBindings()
        binds.append(accessHash)
        binds.append(now.milliseconds)
        return try await rows(PostgresQuery(
            unsafeSQL: Self.sessionSelect + " WHERE s.access_hash = $1 AND s.revoked_at IS NULL AND s.access_expires > $2 AND (s.ends_at IS NULL OR s.ends_at > $2)",
            binds: binds)
        ).first.map(Self.authenticated)
    }

    public func rotate(refreshHash: String, to tokens: NewTokens, now: Timestamp, graceMilliseconds: Int64) async throws -> AuthenticatedSession? {
        try await transaction { connection in
            // FOR UPDATE: two hubs answering two refreshes of one session decide one after the other.
            guard let row = try await rows("""
                SELECT id, refresh_hash = \(refreshHash) AS is_current, rotated_at, refresh_expires FROM sessions
                WHERE (refresh_hash = \(refreshHash) OR previous_refresh_hash = \(refreshHash)) AND revoked_at IS NULL
                    AND (ends_at IS NULL OR ends_at > \(now.milliseconds))
                FOR UPDATE
                """, on: connection).first
            else { return nil }
            let id = try row["id"].decode(String.self)
            let verdict = RefreshRotation.verdict(
                presentedIsCurrent: try row["is_current"].decode(Bool.self),
                rotatedAt: try row["rotated_at"].decode(Int64?.self).map(Timestamp.init(milliseconds:)),
                refreshExpires: Timestamp(milliseconds: try row["refresh_expires"].decode(Int64.self)), now: now, graceMilliseconds: graceMilliseconds)
            switch verdict {
            case .refuse:
                return nil
            case .revoke:
                try await connection.query("UPDATE sessions SET revoked_at = \(now.milliseconds) WHERE id = \(id)", logger: logger)
                return nil
            case .rotate:
                try await connection.query("""
                    UPDATE sessions SET previous_refresh_hash = refresh_hash, refresh_hash = \(tokens.refreshHash),
                        refresh_expires = \(tokens.refreshExpires.milliseconds), access_hash = \(tokens.accessHash),
                        access_expires = \(tokens.accessExpires.milliseconds), last_used_at = \(now.milliseconds), rotated_at = \(now.milliseconds)
                    WHERE id = \(id)
                    """, logger: logger)
                var binds = PostgresBindings()
                binds.append(id)
                return try await rows(PostgresQuery(unsafeSQL: Self.sessionSelect + " WHERE s.id = $1", binds: binds), on: connection)
                    .first.map(Self.authenticated)
            }
        }
    }

    public func revokeSession(id: String, now: Timestamp) async throws -> Bool {
        try await !rows("UPDATE sessions SET revoked_at = \(now.milliseconds) WHERE id = \(id) AND revoked_at IS NULL RETURNING id").isEmpty
    }

    public func sessions() async throws -> [SessionSummary] {
        try await rows("SELECT s.*, st.email FROM sessions s JOIN staff st ON st.id = s.staff_id ORDER BY s.created_at").map(Self.sessionSummary)
    }

    static func sessionSummary(_ row: PostgresRandomAccessRow) throws -> SessionSummary {
        SessionSummary(
            id: try row["id"].decode(String.self), staffEmail: try row["email"].decode(String.self),
            deviceID: try row["device_id"].decode(String?.self), stationName: try row["station_name"].decode(String?.self),
            createdAt: Timestamp(milliseconds: try row["created_at"].decode(Int64.self)),
            lastUsedAt: Timestamp(milliseconds: try row["last_used_at"].decode(Int64.self)),
            revoked: try row["revoked_at"].decode(Int64?.self) != nil)
    }

    public func registerStation(_ claim: StationClaim) async throws -> StationClaim.Outcome {
        try await transaction { connection in
            // A new id is inserted outright; a known one is locked and judged, so two hubs taking
            // claims on one id at once decide them one after the other.
            let inserted = try await !rows("""
                INSERT INTO stations (device_id, secret_hash, name, registered_by, registered_at, session_id)
                VALUES (\(claim.deviceID), \(claim.secretHash), \(claim.name), \(claim.staffID), \(claim.now.milliseconds), \(claim.sessionID))
                ON CONFLICT (device_id) DO NOTHING RETURNING device_id
                """, on: connection).isEmpty
            if !inserted {
                let stored = try await rows("SELECT secret_hash FROM stations WHERE device_id = \(claim.deviceID) FOR UPDATE", on: connection)
                    .first.map { try $0["secret_hash"].decode(String?.self) }
                guard StationClaim.decide(existingSecretHash: stored, claimSecretHash: claim.secretHash) == .registered else { return .deviceTaken }
                try await connection.query("""
                    UPDATE stations SET secret_hash = \(claim.secretHash), name = \(claim.name), registered_by = \(claim.staffID),
                        registered_at = \(claim.now.milliseconds), session_id = \(claim.sessionID)
                    WHERE device_id = \(claim.deviceID)
                    """, logger: logger)
            }
            try await connection.query("""
                UPDATE sessions SET device_id = NULL, station_name = NULL WHERE device_id = \(claim.deviceID) AND id <> \(claim.sessionID)
                """, logger: logger)
            try await connection.query("""
                UPDATE sessions SET device_id = \(claim.deviceID), station_name = \(claim.name) WHERE id = \(claim.sessionID)
                """, logger: logger)
            return .registered
        }
    }
}

extension PostgresHubStore {
    /// A transaction whose body's own errors (an unknown event, an unknown person) come out as
    /// themselves: PostgresNIO wraps whatever the body throws in a `PostgresTransactionError`,
    /// which would turn "No event X" into an unreadable message and a 404 into a 503.
    func transaction<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        do {
            return try await client.withTransaction(logger: logger, isolation: isolation, body)
        } catch let error as PostgresTransactionError where error.rollbackError == nil && error.closureError != nil {
            throw error.closureError!
        }
    }
}
