import CheckInCore
import HubAPI
import HubCore

/// Uploaded check-ins (``SyncRepository/ingest(event:items:uploader:now:)``) and the dashboard's
/// manual check-in, one path: decided by ``CheckInIngest`` from what the batch's guests hold.
extension SQLHubStore {
    public func ingest(event: EventSummary, items: [CheckInUpload], uploader: Uploader, now: Timestamp) async throws -> [CheckInResult] {
        try await ingest(event: event, items: items, uploader: uploader, now: now, audit: nil)
    }

    public func manualCheckIn(event: EventSummary, _ item: CheckInUpload, uploader: Uploader, now: Timestamp,
                              audit: @escaping @Sendable (CheckInResult) -> OrganizerAction) async throws -> CheckInResult {
        try await ingest(event: event, items: [item], uploader: uploader, now: now, audit: { audit($0[0]) })[0]
    }

    /// Decides and records the batch; with `audit`, the organizer action it makes of the answers
    /// is written in the same transaction.
    func ingest(event: EventSummary, items: [CheckInUpload], uploader: Uploader, now: Timestamp,
                audit: (@Sendable ([CheckInResult]) -> OrganizerAction)?) async throws -> [CheckInResult] {
        let guestIDs = Array(Set(items.map(\.key.guestID)))
        let (results, written) = try await database.write(changing: event.id) { connection -> ([CheckInResult], Int) in
            // The batch's guests are decided under their own locks, in parallel with other
            // guests'; the event lock is taken only to write.
            try await connection.lockGuests(event.id, guestIDs)
            var (guests, types) = try await Self.guests(guestIDs, of: event.id, on: connection)
            if guests.count < guestIDs.count {
                // A guest this batch names may be a walk-in whose upload is committing right now
                // (walk-ins hold the event lock): wait for it and look again, rather than answer
                // "unknown code" for good.
                try await connection.lockEvent(event.id)
                (guests, types) = try await Self.guests(guestIDs, of: event.id, on: connection)
            }
            var known: [IdempotencyKey: CheckInResult] = [:]
            var movements: [String: [CheckIn]] = [:]
            for stored in try await Self.recorded(items, guestIDs: guestIDs, of: event.id, on: connection) {
                known[stored.upload.key] = stored.result
                if stored.isMovement { movements[stored.upload.key.guestID, default: []].append(stored.upload) }
            }
            let decided = CheckInIngest.decide(items, policy: event.policy, known: known, guests: guests, accessTypes: types,
                                               movements: movements, now: now)
            try await Self.record(audit?(decided.results), on: connection)
            if !decided.attempts.isEmpty {
                try await connection.execute("""
                    INSERT INTO check_in_attempts (event_id, device_id, guest_id, scanned_at, station, operator_name, uploaded_by,
                        source, direction, decision, reason, received_at)
                    SELECT \(event.id), u.device_id, u.guest_id, u.scanned_at, u.station, u.operator_name, \(uploader.staffID), u.source,
                        u.direction, u.decision, u.reason, \(now)
                    FROM \(connection.dialect.table(Self.batch(decided.attempts), as: "u")) ORDER BY u.n
                    """)
            }
            guard !decided.rows.isEmpty else { return (decided.results, 0) }
            // The event lock is taken by the statement itself, before any row draws its change
            // sequence number (the sorted join cannot emit a row before the CTE has run), and the
            // change notice rides in it: no extra round trip per batch.
            try await connection.execute("""
                WITH event_lock AS MATERIALIZED (SELECT \(connection.dialect.eventLock(event.id)) AS locked),
                    notice AS MATERIALIZED (SELECT \(connection.dialect.changeNotice(event.id)) AS sent FROM event_lock)
                INSERT INTO check_ins (event_id, device_id, guest_id, scanned_at, station, operator_name, source, direction,
                    status, decision, reason, prev_by, prev_station, prev_device, prev_at, received_at, seq, uploaded_by, flag)
                SELECT \(event.id), u.device_id, u.guest_id, u.scanned_at, u.station, u.operator_name, u.source, u.direction, u.status,
                    u.decision, u.reason, u.prev_by, u.prev_station, u.prev_device, u.prev_at, \(now), nextval('change_seq'), \(uploader.staffID), u.flag
                FROM event_lock, notice, \(connection.dialect.table(Self.batch(decided.rows), as: "u"))
                ORDER BY u.n
                """)
            return (decided.results, decided.rows.count)
        }
        if written > 0 { await database.wrote(written, to: .checkIns) }
        return results
    }

    /// The batch's guests not deleted, and the access types they hold.
    private static func guests(_ ids: [String], of event: String,
                               on connection: any SQLConnection) async throws -> (guests: [String: Guest], types: [String: AccessType]) {
        var guests: [String: Guest] = [:]
        var types: [String: AccessType] = [:]
        let rows = try await connection.rows("""
            SELECT g.id, g.code, g.name, g.email, g.company, g.access_type_id, g.revoked, g.walk_in, g.ticket_valid_from,
                g.ticket_valid_until, g.attention, g.order_code, g.checked_in_before,
                a.name AS type_name, a.reentry, a.valid_from, a.valid_until
            FROM guests g LEFT JOIN access_types a ON a.event_id = g.event_id AND a.id = g.access_type_id
            WHERE g.event_id = \(event) AND \(connection.dialect.expression("g.id", isIn: .texts(ids))) AND NOT g.deleted
            """) { row in
            (try Guest(row: row), try row.optionalText("type_name").map {
                AccessType(id: try row.text("access_type_id"), name: $0, reentry: try row.bool("reentry"),
                           validFrom: try row.optionalTime("valid_from"), validUntil: try row.optionalTime("valid_until"))
            })
        }
        for (guest, type) in rows {
            guests[guest.id] = guest
            if let type { types[type.id] = type }
        }
        return (guests, types)
    }

    /// Only what the decision reads: this batch's keys (replays) and the guests' standing
    /// movements; a guest refused 1,000 times must not cost 1,000 rows per upload.
    private static func recorded(_ items: [CheckInUpload], guestIDs: [String], of event: String,
                                 on connection: any SQLConnection) async throws -> [StoredCheckIn] {
        let keys = SQLBatch(items, [
            ("device_id", { .text($0.map(\.key.deviceID)) }), ("guest_id", { .text($0.map(\.key.guestID)) }),
            ("scanned_at", { .integer($0.map(\.key.scannedAt.milliseconds)) }),
        ])
        return try await connection.rows("""
            SELECT * FROM check_ins WHERE event_id = \(event) AND \(connection.dialect.expression("guest_id", isIn: .texts(guestIDs)))
                AND ((status = 'accepted' AND undone_at IS NULL)
                     OR (device_id, guest_id, scanned_at) IN (SELECT k.device_id, k.guest_id, k.scanned_at FROM \(connection.dialect.table(keys, as: "k"))))
            """) { try StoredCheckIn(row: $0) }
    }

    /// Decided uploads as rows to insert, in batch order.
    private static func batch(_ rows: [CheckInIngest.Row]) -> SQLBatch {
        SQLBatch(rows, [
            ("device_id", { .text($0.map(\.upload.key.deviceID)) }), ("guest_id", { .text($0.map(\.upload.key.guestID)) }),
            ("scanned_at", { .integer($0.map(\.upload.key.scannedAt.milliseconds)) }), ("station", { .text($0.map(\.upload.station)) }),
            ("operator_name", { .text($0.map(\.upload.operatorName)) }), ("source", { .text($0.map(\.upload.source.rawValue)) }),
            ("direction", { .text($0.map(\.upload.direction.rawValue)) }), ("status", { .text($0.map(\.result.status.rawValue)) }),
            ("decision", { .text($0.map(\.result.decision.rawValue)) }), ("reason", { .optionalText($0.map(\.result.reason)) }),
            ("prev_by", { .optionalText($0.map(\.result.previous?.by)) }), ("prev_station", { .optionalText($0.map(\.result.previous?.station)) }),
            ("prev_device", { .optionalText($0.map(\.result.previous?.deviceID)) }),
            ("prev_at", { .optionalInteger($0.map(\.result.previous?.at.milliseconds)) }), ("flag", { .optionalText($0.map(\.result.flag?.rawValue)) }),
        ])
    }
}
