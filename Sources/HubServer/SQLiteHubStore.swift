import CheckInCore
import Foundation
import GRDB
import HubAPI
import RosterCSV
import Synchronization

/// The hub's embedded default: one SQLite file through GRDB (WAL, one writer). Every write is
/// one write transaction, which is what makes dedupe exact here.
public final class SQLiteHubStore: HubStore {
    public let kind = "sqlite"
    let pool: DatabasePool
    /// Where commits are reported while the hub serves (``reportChanges(to:)``).
    private let sink = Mutex<(any ChangeSink)?>(nil)

    public init(path: String) throws {
        try HubDatabaseFiles.prepare(path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
    }

    public func close() async { try? pool.close() }

    public func migrate() async throws -> [String] {
        try await pool.write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS hub_migrations (name TEXT PRIMARY KEY, checksum TEXT NOT NULL)")
            let applied = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT name, checksum FROM hub_migrations")
                .map { ($0["name"] as String, $0["checksum"] as String) })
            var now: [String] = []
            for migration in HubMigration.sqlite {
                if let checksum = applied[migration.name] {
                    guard checksum == migration.checksum else { throw HubStoreError.migrationChecksumMismatch(migration.name) }
                    continue
                }
                try db.execute(sql: migration.sql)
                try db.execute(sql: "INSERT INTO hub_migrations (name, checksum) VALUES (?, ?)", arguments: [migration.name, migration.checksum])
                now.append(migration.name)
            }
            return now
        }
    }

    public func schemaVersion() async throws -> String {
        try await pool.read { db in try String.fetchOne(db, sql: "SELECT max(name) FROM hub_migrations") ?? "" }
    }

    static func nextSeq(_ db: Database, count: Int = 1) throws -> Int64 {
        try Int64.fetchOne(db, sql: "UPDATE hub_counters SET value = value + ? WHERE name = 'change_seq' RETURNING value", arguments: [count])! - Int64(count) + 1
    }

    private static func currentSeq(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT value FROM hub_counters WHERE name = 'change_seq'") ?? 0
    }

    /// A write transaction that may change `event`'s roster. When it drew a change sequence number,
    /// the change sink hears of it after the commit (never before: a woken long-poll must find
    /// the change), with the counter's value, which no earlier change of the event exceeds.
    func change<T: Sendable>(_ event: String, _ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let (value, before, after) = try await pool.write { db in
            let before = try Self.currentSeq(db)
            let value = try updates(db)
            return (value, before, try Self.currentSeq(db))
        }
        if after != before { sink.withLock { $0 }?.changed(event: event, sequence: after) }
        return value
    }

    // MARK: Change reports

    /// One hub process serves a SQLite file, so its own commits are all it needs to report at
    /// once. Other processes writing the file (`checkin-hub import`, `access-type add`) are not
    /// seen this way: the sink is told reports are incomplete, and polls ``latestChange(event:)``.
    public func reportChanges(to sink: any ChangeSink) async {
        self.sink.withLock { $0 = sink }
        sink.reportsEveryChange(false)
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(3_600)) }
        self.sink.withLock { $0 = nil }
    }

    public func latestChange(event: String) async throws -> Int64 {
        try await pool.read { db in
            try Int64.fetchOne(db, sql: StatsSQL.sqlite(StatsSQL.latestChange), arguments: [event]) ?? 0
        }
    }

    // MARK: Administration

    public func createEvent(_ event: EventSummary) async throws { try await insertEvent(event, audit: nil) }

    /// Creates the event, and writes `audit` in the same transaction.
    func insertEvent(_ event: EventSummary, audit: OrganizerAction?) async throws {
        try await pool.write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM events WHERE id = ?", arguments: [event.id]) == true {
                throw HubStoreError.duplicateEvent(event.id)
            }
            try db.execute(
                sql: "INSERT INTO events (id, name, starts_at, ends_at, time_zone, window_ms, undo_ms) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [event.id, event.name, event.startsAt?.milliseconds, event.endsAt?.milliseconds, event.timeZone,
                            event.toleranceWindowMilliseconds, event.stationUndoMilliseconds])
            if let audit { try Self.insertAction(db, audit) }
        }
    }

    static func event(_ row: Row) -> EventSummary {
        EventSummary(
            id: row["id"], name: row["name"], startsAt: (row["starts_at"] as Int64?).map(Timestamp.init(milliseconds:)),
            endsAt: (row["ends_at"] as Int64?).map(Timestamp.init(milliseconds:)), timeZone: row["time_zone"],
            toleranceWindowMilliseconds: row["window_ms"], stationUndoMilliseconds: row["undo_ms"])
    }

    public func event(id: String) async throws -> EventSummary? {
        try await pool.read { db in try Row.fetchOne(db, sql: "SELECT * FROM events WHERE id = ?", arguments: [id]).map(Self.event) }
    }

    public func events() async throws -> [EventSummary] {
        try await pool.read { db in try Row.fetchAll(db, sql: "SELECT * FROM events ORDER BY starts_at, id").map(Self.event) }
    }

    static func requireEvent(_ db: Database, _ id: String) throws {
        guard try Bool.fetchOne(db, sql: "SELECT 1 FROM events WHERE id = ?", arguments: [id]) == true else {
            throw HubStoreError.unknownEvent(id)
        }
    }

    public func upsertAccessType(event: String, _ type: AccessType) async throws { try await writeAccessType(event: event, type, audit: nil) }

    /// Adds or changes the access type, and writes `audit` in the same transaction.
    func writeAccessType(event: String, _ type: AccessType, audit: OrganizerAction?) async throws {
        try await change(event) { db in
            try Self.requireEvent(db, event)
            try db.execute(
                sql: """
                    INSERT INTO access_types (event_id, id, name, reentry, valid_from, valid_until, seq) VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (event_id, id) DO UPDATE SET name = excluded.name, reentry = excluded.reentry,
                        valid_from = excluded.valid_from, valid_until = excluded.valid_until, seq = excluded.seq
                    """,
                arguments: [event, type.id, type.name, type.reentry, type.validFrom?.milliseconds, type.validUntil?.milliseconds, try Self.nextSeq(db)])
            if let audit { try Self.insertAction(db, audit) }
        }
    }

    public func importRoster(event: String, rows: [RosterRow], replace: Bool) async throws -> ImportSummary {
        try await writeRoster(event: event, rows: rows, replace: replace, audit: nil)
    }

    /// Imports the rows, and writes the entry `audit` makes of the summary in the same transaction.
    func writeRoster(event: String, rows: [RosterRow], replace: Bool,
                     audit: (@Sendable (ImportSummary) -> OrganizerAction)?) async throws -> ImportSummary {
        try await change(event) { db in
            try Self.requireEvent(db, event)
            var summary = ImportSummary(imported: 0, updated: 0, unchanged: 0)
            var types = Set(try String.fetchAll(db, sql: "SELECT id FROM access_types WHERE event_id = ?", arguments: [event]))
            let existing = try Row.fetchCursor(db, sql: """
                SELECT code, name, email, company, access_type_id, revoked, \(Self.factColumns) FROM guests WHERE event_id = ?
                """, arguments: [event])
            var known: [String: [String]] = [:]
            while let row = try existing.next() {
                known[row["code"]] = ImportSummary.values(name: row["name"], email: row["email"], company: row["company"], typeID: row["access_type_id"],
                                                          revoked: row["revoked"], facts: Self.facts(row))
            }
            let upsert = try db.makeStatement(sql: """
                INSERT INTO guests (event_id, id, code, name, email, company, access_type_id, revoked, seq, \(Self.factColumns))
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (event_id, code) DO UPDATE SET name = excluded.name, email = excluded.email, company = excluded.company,
                    access_type_id = excluded.access_type_id, revoked = excluded.revoked, deleted = 0, seq = excluded.seq,
                    ticket_valid_from = excluded.ticket_valid_from, ticket_valid_until = excluded.ticket_valid_until,
                    attention = excluded.attention, order_code = excluded.order_code, checked_in_before = excluded.checked_in_before
                """)
            for row in rows {
                let typeID = AccessType.identifier(forName: row.accessType)
                if !types.contains(typeID) {
                    try db.execute(
                        sql: "INSERT INTO access_types (event_id, id, name, reentry, seq) VALUES (?, ?, ?, 0, ?)",
                        arguments: [event, typeID, row.accessType, try Self.nextSeq(db)])
                    types.insert(typeID)
                }
                let values = ImportSummary.values(name: row.name, email: row.email, company: row.company, typeID: typeID, revoked: row.revoked,
                                                  facts: row.facts)
                guard summary.count(values, old: known[row.code.value]) else { continue }
                known[row.code.value] = values
                try upsert.execute(arguments: [event, row.code.value, row.code.value, row.name, row.email, row.company, typeID, row.revoked,
                                               try Self.nextSeq(db), row.facts.validFrom?.milliseconds, row.facts.validUntil?.milliseconds,
                                               row.facts.attentionNote, row.facts.orderCode, row.facts.checkedInBefore?.milliseconds])
            }
            if replace {
                // A ticket refunded since the last export is simply missing from this one.
                let present = Set(rows.map(\.code.value))
                let revoke = try db.makeStatement(sql: "UPDATE guests SET revoked = 1, seq = ? WHERE event_id = ? AND code = ?")
                for code in try String.fetchAll(db, sql: """
                    SELECT code FROM guests WHERE event_id = ? AND NOT revoked AND NOT walk_in AND NOT deleted ORDER BY code
                    """, arguments: [event]) where !present.contains(code) {
                    try revoke.execute(arguments: [try Self.nextSeq(db), event, code])
                    summary.revokedMissing.append(code)
                }
            }
            if let audit { try Self.insertAction(db, audit(summary)) }
            return summary
        }
    }

    public func setRevoked(event: String, guestID: String, revoked: Bool) async throws -> Bool {
        try await change(event) { db in
            try db.execute(sql: "UPDATE guests SET revoked = ?, seq = ? WHERE event_id = ? AND id = ?", arguments: [revoked, try Self.nextSeq(db), event, guestID])
            return db.changesCount > 0
        }
    }

    public func deleteGuest(event: String, guestID: String) async throws -> Bool {
        try await change(event) { db in
            try db.execute(sql: "UPDATE guests SET deleted = 1, seq = ? WHERE event_id = ? AND id = ? AND deleted = 0", arguments: [try Self.nextSeq(db), event, guestID])
            return db.changesCount > 0
        }
    }

    public func addStaff(_ staff: StaffInfo, passwordHash: String) async throws { try await insertStaff(staff, passwordHash: passwordHash, audit: nil) }

    /// Adds the account, and writes `audit` in the same transaction.
    func insertStaff(_ staff: StaffInfo, passwordHash: String, audit: OrganizerAction?) async throws {
        try await pool.write { db in
            // Sign-in ignores the e-mail's case, so two accounts must not differ by case alone.
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM staff WHERE lower(email) = lower(?)", arguments: [staff.email]) == true {
                throw HubStoreError.duplicateStaff(staff.email)
            }
            try db.execute(
                sql: "INSERT INTO staff (id, email, name, role, password_hash) VALUES (?, ?, ?, ?, ?)",
                arguments: [staff.id, staff.email, staff.name, staff.role.rawValue, passwordHash])
            if let audit { try Self.insertAction(db, audit) }
        }
    }

    public func staff(email: String) async throws -> (info: StaffInfo, passwordHash: String)? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: """
                SELECT * FROM staff WHERE lower(email) = lower(?) AND disabled_at IS NULL AND removed_at IS NULL ORDER BY id LIMIT 1
                """, arguments: [email]).map {
                (StaffInfo(id: $0["id"], email: $0["email"], name: $0["name"], role: StaffRole(rawValue: $0["role"]) ?? .staff), $0["password_hash"])
            }
        }
    }

    // MARK: Sessions

    public func createSession(_ session: NewSession) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO sessions (id, staff_id, access_hash, access_expires, refresh_hash, refresh_expires, created_at, last_used_at, ends_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [session.id, session.staffID, session.tokens.accessHash, session.tokens.accessExpires.milliseconds,
                            session.tokens.refreshHash, session.tokens.refreshExpires.milliseconds, session.createdAt.milliseconds,
                            session.createdAt.milliseconds, session.endsAt.milliseconds])
        }
    }

    /// A session speaks for a device only while it holds that device's station registration.
    private static let sessionSelect = """
        SELECT s.id AS session_id, s.ends_at, d.device_id, d.name AS station_name, st.id AS staff_id, st.email, st.name, st.role
        FROM sessions s JOIN staff st ON st.id = s.staff_id AND st.disabled_at IS NULL AND st.removed_at IS NULL
        LEFT JOIN stations d ON d.device_id = s.device_id AND d.session_id = s.id
        """

    private static func authenticated(_ row: Row) -> AuthenticatedSession {
        AuthenticatedSession(
            sessionID: row["session_id"],
            staff: StaffInfo(id: row["staff_id"], email: row["email"], name: row["name"], role: StaffRole(rawValue: row["role"]) ?? .staff),
            deviceID: row["device_id"], stationName: row["station_name"], endsAt: (row["ends_at"] as Int64?).map(Timestamp.init(milliseconds:)))
    }

    public func session(accessHash: String, now: Timestamp) async throws -> AuthenticatedSession? {
        try await pool.read { db in
            try Row.fetchOne(
                db, sql: Self.sessionSelect + " WHERE s.access_hash = ? AND s.revoked_at IS NULL AND s.access_expires > ? AND (s.ends_at IS NULL OR s.ends_at > ?)",
                arguments: [accessHash, now.milliseconds, now.milliseconds]
            ).map(Self.authenticated)
        }
    }

    public func rotate(refreshHash: String, to tokens: NewTokens, now: Timestamp, graceMilliseconds: Int64) async throws -> AuthenticatedSession? {
        try await pool.write { db in
            guard let row = try Row.fetchOne(
                db, sql: """
                    SELECT id, refresh_hash = ? AS is_current, rotated_at, refresh_expires FROM sessions
                    WHERE (refresh_hash = ? OR previous_refresh_hash = ?) AND revoked_at IS NULL AND (ends_at IS NULL OR ends_at > ?)
                    """,
                arguments: [refreshHash, refreshHash, refreshHash, now.milliseconds])
            else { return nil }
            let id: String = row["id"]
            let verdict = RefreshRotation.verdict(
                presentedIsCurrent: row["is_current"], rotatedAt: (row["rotated_at"] as Int64?).map(Timestamp.init(milliseconds:)),
                refreshExpires: Timestamp(milliseconds: row["refresh_expires"]), now: now, graceMilliseconds: graceMilliseconds)
            switch verdict {
            case .refuse:
                return nil
            case .revoke:
                try db.execute(sql: "UPDATE sessions SET revoked_at = ? WHERE id = ?", arguments: [now.milliseconds, id])
                return nil
            case .rotate:
                try db.execute(
                    sql: """
                        UPDATE sessions SET previous_refresh_hash = refresh_hash, refresh_hash = ?, refresh_expires = ?,
                            access_hash = ?, access_expires = ?, last_used_at = ?, rotated_at = ?
                        WHERE id = ?
                        """,
                    arguments: [tokens.refreshHash, tokens.refreshExpires.milliseconds, tokens.accessHash, tokens.accessExpires.milliseconds,
                                now.milliseconds, now.milliseconds, id])
                return try Row.fetchOne(db, sql: Self.sessionSelect + " WHERE s.id = ?", arguments: [id]).map(Self.authenticated)
            }
        }
    }

    public func revokeSession(id: String, now: Timestamp) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", arguments: [now.milliseconds, id])
            return db.changesCount > 0
        }
    }

    public func sessions() async throws -> [SessionSummary] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT s.*, st.email FROM sessions s JOIN staff st ON st.id = s.staff_id ORDER BY s.created_at
                """).map(Self.sessionSummary)
        }
    }

    static func sessionSummary(_ row: Row) -> SessionSummary {
        SessionSummary(
            id: row["id"], staffEmail: row["email"], deviceID: row["device_id"], stationName: row["station_name"],
            createdAt: Timestamp(milliseconds: row["created_at"]), lastUsedAt: Timestamp(milliseconds: row["last_used_at"]),
            revoked: (row["revoked_at"] as Int64?) != nil)
    }

    public func registerStation(_ claim: StationClaim) async throws -> StationClaim.Outcome {
        try await pool.write { db in
            let existing = try Row.fetchOne(db, sql: "SELECT secret_hash FROM stations WHERE device_id = ?", arguments: [claim.deviceID])
            let outcome = StationClaim.decide(existingSecretHash: existing.map { $0["secret_hash"] as String? }, claimSecretHash: claim.secretHash)
            guard outcome == .registered else { return outcome }
            try db.execute(
                sql: """
                    INSERT INTO stations (device_id, secret_hash, name, registered_by, registered_at, session_id) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (device_id) DO UPDATE SET secret_hash = excluded.secret_hash, name = excluded.name,
                        registered_by = excluded.registered_by, registered_at = excluded.registered_at, session_id = excluded.session_id
                    """,
                arguments: [claim.deviceID, claim.secretHash, claim.name, claim.staffID, claim.now.milliseconds, claim.sessionID])
            try db.execute(sql: "UPDATE sessions SET device_id = NULL, station_name = NULL WHERE device_id = ? AND id <> ?", arguments: [claim.deviceID, claim.sessionID])
            try db.execute(sql: "UPDATE sessions SET device_id = ?, station_name = ? WHERE id = ?", arguments: [claim.deviceID, claim.name, claim.sessionID])
            return outcome
        }
    }

    // MARK: Sync

    public func rosterPage(event: String, after cursor: Int64, limit: Int, now: Timestamp) async throws -> RosterPage {
        try await pool.read { db in
            try Self.requireEvent(db, event)
            var changes: [(seq: Int64, apply: (inout RosterPage) -> Void)] = []
            for row in try Row.fetchAll(db, sql: "SELECT * FROM access_types WHERE event_id = ? AND seq > ? ORDER BY seq LIMIT ?", arguments: [event, cursor, limit + 1]) {
                let type = RosterAccessType(
                    id: row["id"], name: row["name"], reentry: row["reentry"],
                    validFrom: (row["valid_from"] as Int64?).map(Timestamp.init(milliseconds:)),
                    validUntil: (row["valid_until"] as Int64?).map(Timestamp.init(milliseconds:)))
                changes.append((row["seq"], { $0.accessTypes.append(type) }))
            }
            // Columns by position: GRDB matches a column name case-insensitively, lower-casing
            // it at every access (11 % of the hub's CPU while serving a 100k-guest roster).
            for row in try Row.fetchAll(db, sql: """
                SELECT id, deleted, seq, code, name, email, company, access_type_id, revoked, walk_in, possible_duplicate_of,
                    \(Self.factColumns), merged_into
                FROM guests WHERE event_id = ? AND seq > ? ORDER BY seq LIMIT ?
                """, arguments: [event, cursor, limit + 1]) {
                let id: String = row[0]
                if row[1] as Bool {
                    let merge = (row[16] as String?)  // merged_into, after the five fact columns
                        .map { GuestMerge(guestID: id, into: $0) }
                    changes.append((row[2], {
                        $0.deletedGuestIDs.append(id)
                        if let merge { $0.merges = ($0.merges ?? []) + [merge] }
                    }))
                } else {
                    let guest = RosterGuest(
                        id: id, code: row[3], name: row[4], email: row[5], company: row[6],
                        accessTypeID: row[7], revoked: row[8], walkIn: row[9], possibleDuplicateOf: row[10], facts: Self.facts(row, from: 11))
                    changes.append((row[2], { $0.guests.append(guest) }))
                }
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT device_id, guest_id, scanned_at, station, operator_name, source, direction, undone_at, seq
                FROM check_ins WHERE event_id = ? AND seq > ? AND status = 'accepted' AND scanned_at BETWEEN ? AND ? ORDER BY seq LIMIT ?
                """, arguments: [event, cursor, PlausibleTime.earliest.milliseconds, PlausibleTime.latest(now: now).milliseconds, limit + 1]) {
                let checkIn = RosterCheckIn(
                    key: IdempotencyKey(deviceID: row[0], guestID: row[1], scannedAt: Timestamp(milliseconds: row[2])),
                    station: row[3], operatorName: row[4],
                    source: CheckInSource(rawValue: row[5]) ?? .typed, direction: Direction(rawValue: row[6]) ?? .entry,
                    undone: (row[7] as Int64?) != nil)
                changes.append((row[8], { $0.checkIns.append(checkIn) }))
            }
            return RosterPaging.page(changes, after: cursor, limit: limit)
        }
    }

    public func ingest(event: EventSummary, items: [CheckInUpload], uploader: Uploader, now: Timestamp) async throws -> [CheckInResult] {
        try await change(event.id) { db in try Self.ingest(db, event: event, items: items, uploader: uploader, now: now) }
    }

    /// Decides and records a batch inside the caller's write transaction (``ingest(event:items:uploader:now:)``,
    /// the dashboard's manual check-in).
    static func ingest(_ db: Database, event: EventSummary, items: [CheckInUpload], uploader: Uploader, now: Timestamp) throws -> [CheckInResult] {
        let guestIDs = Array(Set(items.map(\.key.guestID)))
        let state = try SQLiteIngestState.load(db, event: event.id, guestIDs: guestIDs, keys: items.map(\.key))
        let decided = CheckInIngest.decide(
            items, policy: event.policy, known: state.known, guests: state.guests, accessTypes: state.accessTypes,
            movements: state.movements, now: now)
        if !decided.attempts.isEmpty {
            let audit = try db.makeStatement(sql: """
                INSERT INTO check_in_attempts (event_id, device_id, guest_id, scanned_at, station, operator_name, uploaded_by,
                    source, direction, decision, reason, received_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for attempt in decided.attempts {
                let item = attempt.upload
                try audit.execute(arguments: [
                    event.id, item.key.deviceID, item.key.guestID, item.key.scannedAt.milliseconds, item.station, item.operatorName,
                    uploader.staffID, item.source.rawValue, item.direction.rawValue, attempt.result.decision.rawValue,
                    attempt.result.reason, now.milliseconds,
                ])
            }
        }
        guard !decided.rows.isEmpty else { return decided.results }
        var seq = try Self.nextSeq(db, count: decided.rows.count)
        let insert = try db.makeStatement(sql: """
            INSERT INTO check_ins (event_id, device_id, guest_id, scanned_at, station, operator_name, source, direction,
                status, decision, reason, prev_by, prev_station, prev_device, prev_at, received_at, seq, uploaded_by, flag)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for row in decided.rows {
            let item = row.upload, result = row.result
            try insert.execute(arguments: [
                event.id, item.key.deviceID, item.key.guestID, item.key.scannedAt.milliseconds, item.station, item.operatorName,
                item.source.rawValue, item.direction.rawValue, result.status.rawValue, result.decision.rawValue, result.reason,
                result.previous?.by, result.previous?.station, result.previous?.deviceID, result.previous?.at.milliseconds,
                now.milliseconds, seq, uploader.staffID, result.flag?.rawValue,
            ])
            seq += 1
        }
        return decided.results
    }

    public func ingestWalkIns(event: EventSummary, items: [WalkInUpload], uploader: Uploader, now: Timestamp) async throws -> [WalkInResult] {
        try await change(event.id) { db in
            var results: [WalkInResult] = []
            let types = Set(try String.fetchAll(db, sql: "SELECT id FROM access_types WHERE event_id = ?", arguments: [event.id]))
            for item in items {
                let recorded = try Row.fetchOne(db, sql: """
                    SELECT g.possible_duplicate_of, g.access_type_id, w.review FROM guests g
                    LEFT JOIN walk_ins w ON w.event_id = g.event_id AND w.guest_id = g.id
                    WHERE g.event_id = ? AND g.id = ?
                    """, arguments: [event.id, item.guestID]).map {
                    WalkInResult(guestID: item.guestID, status: .accepted, possibleDuplicateOf: $0["possible_duplicate_of"],
                                 accessTypeID: $0["access_type_id"], review: $0["review"])
                }
                let facts = WalkInDecider.Facts(
                    recorded: recorded,
                    codeTaken: try Bool.fetchOne(db, sql: "SELECT 1 FROM guests WHERE event_id = ? AND code = ?", arguments: [event.id, item.code]) == true,
                    accessTypes: types,
                    sameEmail: item.email.isEmpty ? nil : try String.fetchOne(
                        db, sql: "SELECT id FROM guests WHERE event_id = ? AND lower(email) = lower(?) AND deleted = 0 ORDER BY walk_in, id LIMIT 1",
                        arguments: [event.id, item.email]))
                switch WalkInDecider.decide(item, facts: facts) {
                case .answer(let result):
                    results.append(result)
                case .record(let type, let review, let twin, let result):
                    try db.execute(
                        sql: """
                            INSERT INTO guests (event_id, id, code, name, email, company, access_type_id, walk_in, possible_duplicate_of, seq)
                            VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)
                            """,
                        arguments: [event.id, item.guestID, item.code, item.name, item.email, item.company, type, twin, try Self.nextSeq(db)])
                    try db.execute(
                        sql: """
                            INSERT INTO walk_ins (event_id, guest_id, device_id, station, operator_name, uploaded_by, created_at, received_at,
                                requested_access_type_id, access_type_id, review)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [event.id, item.guestID, item.deviceID, item.station, item.operatorName, uploader.staffID, item.createdAt.milliseconds,
                                    now.milliseconds, item.accessTypeID, type, review])
                    results.append(result)
                }
            }
            return results
        }
    }

    public func undo(event: EventSummary, items: [UndoUpload], caller: Uploader, now: Timestamp) async throws -> [UndoResult] {
        try await change(event.id) { db in
            try items.map { try Self.applyUndo(db, event: event, item: $0, caller: caller, now: now).result }
        }
    }

    /// Decides one undo (``UndoDecider``), marks the check-in undone when it says so and logs the
    /// request, inside the caller's write transaction: the stations' uploads and the dashboard's
    /// undo take this one path.
    static func applyUndo(_ db: Database, event: EventSummary, item: UndoUpload, caller: Uploader, now: Timestamp) throws -> UndoDecider.Decision {
        let key = item.key
        let row = try Row.fetchOne(
            db, sql: "SELECT id, undone_at, received_at FROM check_ins WHERE event_id = ? AND device_id = ? AND guest_id = ? AND scanned_at = ? AND status = 'accepted'",
            arguments: [event.id, key.deviceID, key.guestID, key.scannedAt.milliseconds])
        let decision = UndoDecider.decide(
            item, recorded: row.map { UndoDecider.Recorded(recordedAt: Timestamp(milliseconds: $0["received_at"]), undone: ($0["undone_at"] as Int64?) != nil) },
            caller: caller, event: event, now: now)
        if decision.markUndone, let row {
            try db.execute(sql: "UPDATE check_ins SET undone_at = ?, seq = ? WHERE id = ?", arguments: [item.undoneAt.milliseconds, try Self.nextSeq(db), row["id"] as Int64])
        }
        let result = decision.result
        try db.execute(
            sql: """
                INSERT INTO undo_log (event_id, device_id, guest_id, scanned_at, undone_at, station, operator_name, reason, status, received_at, uploaded_by)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [event.id, key.deviceID, key.guestID, key.scannedAt.milliseconds, item.undoneAt.milliseconds, item.station,
                        item.operatorName, item.reason, result.status.rawValue, now.milliseconds, caller.staffID])
        return decision
    }

    public func stats(event: String) async throws -> EventStats {
        try await pool.read { db in
            try Self.requireEvent(db, event)
            let rows = try Row.fetchAll(db, sql: StatsSQL.sqlite(StatsSQL.perAccessType), arguments: [event])
            let stations = try Row.fetchAll(db, sql: StatsSQL.sqlite(StatsSQL.perStation), arguments: [event])
            let counts = try Row.fetchOne(db, sql: StatsSQL.sqlite(StatsSQL.counts), arguments: [event])!
            let groups = rows.map { StatsGroup(id: $0["id"], expected: $0["expected"], checkedIn: $0["checked_in"], inside: $0["inside"]) }
            return EventStats(
                expected: groups.map(\.expected).reduce(0, +), checkedIn: groups.map(\.checkedIn).reduce(0, +),
                inside: groups.map(\.inside).reduce(0, +), duplicates: counts["duplicates"], conflicts: counts["conflicts"],
                accessTypes: groups,
                stations: stations.map { StatsGroup(id: $0["station"], expected: 0, checkedIn: $0["checked_in"], inside: $0["inside"]) },
                flaggedExits: counts["flagged_exits"])
        }
    }

    public func conflicts(event: String) async throws -> [Conflict] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: StatsSQL.sqlite(StatsSQL.conflicts), arguments: [event]).map {
                Conflict(
                    guestID: $0["guest_id"],
                    first: PreviousCheckIn(by: $0["prev_by"], station: $0["prev_station"], deviceID: $0["prev_device"], at: Timestamp(milliseconds: $0["prev_at"])),
                    second: PreviousCheckIn(by: $0["operator_name"], station: $0["station"], deviceID: $0["device_id"], at: Timestamp(milliseconds: $0["scanned_at"])))
            }
        }
    }

    public func flaggedExits(event: String) async throws -> [FlaggedExit] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: StatsSQL.sqlite(StatsSQL.flaggedExits), arguments: [event]).compactMap { row in
                CheckInFlag(rawValue: row["flag"]).map {
                    FlaggedExit(guestID: row["guest_id"], flag: $0, exit: PreviousCheckIn(
                        by: row["operator_name"], station: row["station"], deviceID: row["device_id"], at: Timestamp(milliseconds: row["scanned_at"])))
                }
            }
        }
    }

    public func walkInReviews(event: String) async throws -> [WalkInReview] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: StatsSQL.sqlite(StatsSQL.walkInReviews), arguments: [event]).map {
                WalkInReview(
                    guestID: $0["guest_id"], requestedAccessTypeID: $0["requested_access_type_id"], accessTypeID: $0["access_type_id"],
                    review: $0["review"], deviceID: $0["device_id"], station: $0["station"], operatorName: $0["operator_name"],
                    uploadedBy: $0["uploaded_by"], createdAt: Timestamp(milliseconds: $0["created_at"]))
            }
        }
    }
}

/// What the SQLite store reads before deciding a batch.
struct SQLiteIngestState {
    var known: [IdempotencyKey: CheckInResult] = [:]
    var guests: [String: Guest] = [:]
    var accessTypes: [String: AccessType] = [:]
    var movements: [String: [CheckIn]] = [:]

    static func load(_ db: Database, event: String, guestIDs: [String], keys: [IdempotencyKey]) throws -> SQLiteIngestState {
        var state = SQLiteIngestState()
        for row in try Row.fetchAll(db, sql: "SELECT * FROM access_types WHERE event_id = ?", arguments: [event]) {
            state.accessTypes[row["id"]] = AccessType(
                id: row["id"], name: row["name"], reentry: row["reentry"],
                validFrom: (row["valid_from"] as Int64?).map(Timestamp.init(milliseconds:)),
                validUntil: (row["valid_until"] as Int64?).map(Timestamp.init(milliseconds:)))
        }
        let guestStatement = try db.makeStatement(sql: "SELECT * FROM guests WHERE event_id = ? AND id = ? AND deleted = 0")
        let checkInStatement = try db.makeStatement(sql: "SELECT * FROM check_ins WHERE event_id = ? AND guest_id = ?")
        for id in guestIDs {
            if let row = try Row.fetchOne(guestStatement, arguments: [event, id]) {
                state.guests[id] = Guest(
                    id: id, code: TicketCode(stored: row["code"]), name: row["name"], email: row["email"], company: row["company"],
                    accessTypeID: row["access_type_id"], revoked: row["revoked"], walkIn: row["walk_in"], facts: SQLiteHubStore.facts(row))
            }
            for row in try Row.fetchAll(checkInStatement, arguments: [event, id]) {
                let stored = StoredCheckIn(row: row)
                state.known[stored.upload.key] = stored.result
                if stored.isMovement { state.movements[id, default: []].append(stored.upload) }
            }
        }
        return state
    }
}

extension StoredCheckIn {
    init(row: Row) {
        let key = IdempotencyKey(deviceID: row["device_id"], guestID: row["guest_id"], scannedAt: Timestamp(milliseconds: row["scanned_at"]))
        let prevAt: Int64? = row["prev_at"]
        self.init(
            upload: CheckInUpload(
                key: key, station: row["station"], operatorName: row["operator_name"],
                source: CheckInSource(rawValue: row["source"]) ?? .typed, direction: Direction(rawValue: row["direction"]) ?? .entry),
            result: CheckInResult(
                key: key, status: UploadStatus(rawValue: row["status"]) ?? .rejected,
                decision: Decision.Kind(rawValue: row["decision"]) ?? .unknownCode, reason: row["reason"],
                previous: prevAt.map { PreviousCheckIn(by: row["prev_by"], station: row["prev_station"], deviceID: row["prev_device"], at: Timestamp(milliseconds: $0)) },
                flag: (row["flag"] as String?).flatMap(CheckInFlag.init(rawValue:))),
            undone: (row["undone_at"] as Int64?) != nil)
    }
}
