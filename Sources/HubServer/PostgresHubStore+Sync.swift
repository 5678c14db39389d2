import CheckInCore
import Foundation
import HubAPI
import Logging
import PostgresNIO

extension PostgresHubStore {
    public func rosterPage(event: String, after cursor: Int64, limit: Int, now: Timestamp) async throws -> RosterPage {
        try await client.withConnection { connection in
            // One snapshot for the three tables: a change committing between two reads could
            // otherwise be skipped by the cursor.
            try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            do {
                let page = try await rosterPage(event: event, after: cursor, limit: limit, now: now, on: connection)
                try await connection.query("COMMIT", logger: logger)
                return page
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    private func rosterPage(event: String, after cursor: Int64, limit: Int, now: Timestamp, on connection: PostgresConnection) async throws -> RosterPage {
        guard try await !rows("SELECT 1 FROM events WHERE id = \(event)", on: connection).isEmpty else { throw HubStoreError.unknownEvent(event) }
        let fetch = limit + 1
        var changes: [(seq: Int64, apply: (inout RosterPage) -> Void)] = []
        for row in try await rows("SELECT * FROM access_types WHERE event_id = \(event) AND seq > \(cursor) ORDER BY seq LIMIT \(fetch)", on: connection) {
            let type = RosterAccessType(
                id: try row["id"].decode(String.self), name: try row["name"].decode(String.self), reentry: try row["reentry"].decode(Bool.self),
                validFrom: try row["valid_from"].decode(Int64?.self).map(Timestamp.init(milliseconds:)),
                validUntil: try row["valid_until"].decode(Int64?.self).map(Timestamp.init(milliseconds:)))
            changes.append((try row["seq"].decode(Int64.self), { $0.accessTypes.append(type) }))
        }
        for row in try await rows("SELECT * FROM guests WHERE event_id = \(event) AND seq > \(cursor) ORDER BY seq LIMIT \(fetch)", on: connection) {
            let id = try row["id"].decode(String.self)
            let seq = try row["seq"].decode(Int64.self)
            if try row["deleted"].decode(Bool.self) {
                let merge = try row["merged_into"].decode(String?.self).map { GuestMerge(guestID: id, into: $0) }
                changes.append((seq, {
                    $0.deletedGuestIDs.append(id)
                    if let merge { $0.merges = ($0.merges ?? []) + [merge] }
                }))
            } else {
                let guest = RosterGuest(
                    id: id, code: try row["code"].decode(String.self), name: try row["name"].decode(String.self),
                    email: try row["email"].decode(String.self), company: try row["company"].decode(String.self),
                    accessTypeID: try row["access_type_id"].decode(String.self), revoked: try row["revoked"].decode(Bool.self),
                    walkIn: try row["walk_in"].decode(Bool.self), possibleDuplicateOf: try row["possible_duplicate_of"].decode(String?.self),
                    facts: try Self.facts(row))
                changes.append((seq, { $0.guests.append(guest) }))
            }
        }
        for row in try await rows("""
            SELECT * FROM check_ins WHERE event_id = \(event) AND seq > \(cursor) AND status = 'accepted'
                AND scanned_at BETWEEN \(PlausibleTime.earliest.milliseconds) AND \(PlausibleTime.latest(now: now).milliseconds)
            ORDER BY seq LIMIT \(fetch)
            """, on: connection) {
            let stored = try Self.storedCheckIn(row)
            let checkIn = RosterCheckIn(
                key: stored.upload.key, station: stored.upload.station, operatorName: stored.upload.operatorName,
                source: stored.upload.source, direction: stored.upload.direction, undone: stored.undone)
            changes.append((try row["seq"].decode(Int64.self), { $0.checkIns.append(checkIn) }))
        }
        return RosterPaging.page(changes, after: cursor, limit: limit)
    }

    static func storedCheckIn(_ row: PostgresRandomAccessRow) throws -> StoredCheckIn {
        let key = IdempotencyKey(
            deviceID: try row["device_id"].decode(String.self), guestID: try row["guest_id"].decode(String.self),
            scannedAt: Timestamp(milliseconds: try row["scanned_at"].decode(Int64.self)))
        let previous: PreviousCheckIn? = try row["prev_at"].decode(Int64?.self).map {
            PreviousCheckIn(
                by: try row["prev_by"].decode(String?.self) ?? "", station: try row["prev_station"].decode(String?.self) ?? "",
                deviceID: try row["prev_device"].decode(String?.self) ?? "", at: Timestamp(milliseconds: $0))
        }
        return StoredCheckIn(
            upload: CheckInUpload(
                key: key, station: try row["station"].decode(String.self), operatorName: try row["operator_name"].decode(String.self),
                source: CheckInSource(rawValue: try row["source"].decode(String.self)) ?? .typed,
                direction: Direction(rawValue: try row["direction"].decode(String.self)) ?? .entry),
            result: CheckInResult(
                key: key, status: UploadStatus(rawValue: try row["status"].decode(String.self)) ?? .rejected,
                decision: Decision.Kind(rawValue: try row["decision"].decode(String.self)) ?? .unknownCode,
                reason: try row["reason"].decode(String?.self), previous: previous,
                flag: try row["flag"].decode(String?.self).flatMap(CheckInFlag.init(rawValue:))),
            undone: try row["undone_at"].decode(Int64?.self) != nil)
    }

    public func ingest(event: EventSummary, items: [CheckInUpload], uploader: Uploader, now: Timestamp) async throws -> [CheckInResult] {
        try await ingest(event: event, items: items, uploader: uploader, now: now, audit: nil)
    }

    /// ``ingest(event:items:uploader:now:)``, and with `audit` the organizer action it makes of the
    /// answers, written in the same transaction (the dashboard's manual check-in).
    func ingest(event: EventSummary, items: [CheckInUpload], uploader: Uploader, now: Timestamp,
                audit: (@Sendable ([CheckInResult]) -> OrganizerAction)?) async throws -> [CheckInResult] {
        let guestIDs = Array(Set(items.map(\.key.guestID)))
        let (results, written) = try await transaction { connection in
            // The batch's guests are decided under their own locks, in parallel with other guests';
            // the event lock is taken only to write (see PostgresHubStore).
            try await Self.lockGuests(connection, event.id, guestIDs, logger: logger)
            func readGuests() async throws -> (guests: [String: Guest], types: [String: AccessType]) {
                var guests: [String: Guest] = [:]
                var types: [String: AccessType] = [:]
                for row in try await rows("""
                    SELECT g.id, g.code, g.name, g.access_type_id, g.revoked, a.name AS type_name, a.reentry, a.valid_from, a.valid_until,
                        g.ticket_valid_from, g.ticket_valid_until, g.attention, g.order_code, g.checked_in_before
                    FROM guests g LEFT JOIN access_types a ON a.event_id = g.event_id AND a.id = g.access_type_id
                    WHERE g.event_id = \(event.id) AND g.id = ANY(\(guestIDs)::text[]) AND NOT g.deleted
                    """, on: connection) {
                    let id = try row["id"].decode(String.self), typeID = try row["access_type_id"].decode(String.self)
                    guests[id] = Guest(
                        id: id, code: TicketCode(stored: try row["code"].decode(String.self)), name: try row["name"].decode(String.self),
                        accessTypeID: typeID, revoked: try row["revoked"].decode(Bool.self), facts: try Self.facts(row))
                    if let name = try row["type_name"].decode(String?.self) {
                        types[typeID] = AccessType(
                            id: typeID, name: name, reentry: try row["reentry"].decode(Bool.self),
                            validFrom: try row["valid_from"].decode(Int64?.self).map(Timestamp.init(milliseconds:)),
                            validUntil: try row["valid_until"].decode(Int64?.self).map(Timestamp.init(milliseconds:)))
                    }
                }
                return (guests, types)
            }
            var (guests, types) = try await readGuests()
            if guests.count < guestIDs.count {
                // A guest this batch names may be a walk-in whose upload is committing right now
                // (walk-ins hold the event lock): wait for it and look again, rather than answer
                // "unknown code" for good.
                try await Self.lockEvent(connection, event.id, logger: logger)
                (guests, types) = try await readGuests()
            }
            var known: [IdempotencyKey: CheckInResult] = [:]
            var movements: [String: [CheckIn]] = [:]
            // Only what the decision reads: this batch's keys (replays) and the guests' recorded
            // movements; a guest refused 1,000 times must not cost 1,000 rows per upload.
            let keyDevices = items.map(\.key.deviceID), keyGuests = items.map(\.key.guestID)
            let keyTimes = items.map(\.key.scannedAt.milliseconds)
            for row in try await rows("""
                SELECT * FROM check_ins WHERE event_id = \(event.id) AND guest_id = ANY(\(guestIDs)::text[])
                    AND ((status = 'accepted' AND undone_at IS NULL)
                         OR (device_id, guest_id, scanned_at) IN (
                             SELECT * FROM unnest(\(keyDevices)::text[], \(keyGuests)::text[], \(keyTimes)::bigint[])))
                """, on: connection) {
                let stored = try Self.storedCheckIn(row)
                known[stored.upload.key] = stored.result
                if stored.isMovement { movements[stored.upload.key.guestID, default: []].append(stored.upload) }
            }
            let decided = CheckInIngest.decide(
                items, policy: event.policy, known: known, guests: guests, accessTypes: types, movements: movements, now: now)
            if let audit { try await Self.insertAction(connection, audit(decided.results), logger: logger) }
            if !decided.attempts.isEmpty {
                let a = decided.attempts
                try await connection.query("""
                    INSERT INTO check_in_attempts (event_id, device_id, guest_id, scanned_at, station, operator_name, uploaded_by,
                        source, direction, decision, reason, received_at)
                    SELECT \(event.id), d, g, s, st, op, \(uploader.staffID), src, dir, decision, NULLIF(reason, ''), \(now.milliseconds)
                    FROM unnest(\(a.map(\.upload.key.deviceID))::text[], \(a.map(\.upload.key.guestID))::text[],
                        \(a.map(\.upload.key.scannedAt.milliseconds))::bigint[], \(a.map(\.upload.station))::text[],
                        \(a.map(\.upload.operatorName))::text[], \(a.map(\.upload.source.rawValue))::text[],
                        \(a.map(\.upload.direction.rawValue))::text[], \(a.map(\.result.decision.rawValue))::text[],
                        \(a.map { $0.result.reason ?? "" })::text[])
                        WITH ORDINALITY AS u(d, g, s, st, op, src, dir, decision, reason, n)
                    ORDER BY n
                    """, logger: logger)
            }
            guard !decided.rows.isEmpty else { return (decided.results, 0) }
            let r = decided.rows
            let devices = r.map(\.upload.key.deviceID), guestColumn = r.map(\.upload.key.guestID), scanned = r.map(\.upload.key.scannedAt.milliseconds)
            let stations = r.map(\.upload.station), operators = r.map(\.upload.operatorName), sources = r.map(\.upload.source.rawValue)
            let directions = r.map(\.upload.direction.rawValue), statuses = r.map(\.result.status.rawValue), decisions = r.map(\.result.decision.rawValue)
            // Arrays cannot carry NULL here: '' and -1 stand for "none" and NULLIF turns them back.
            let reasons = r.map { $0.result.reason ?? "" }, prevBy = r.map { $0.result.previous?.by ?? "" }
            let prevStation = r.map { $0.result.previous?.station ?? "" }, prevDevice = r.map { $0.result.previous?.deviceID ?? "" }
            let prevAt = r.map { $0.result.previous?.at.milliseconds ?? -1 }, flags = r.map { $0.result.flag?.rawValue ?? "" }
            // The event lock (see PostgresHubStore) is taken by the same statement, before any
            // row draws its seq: the sorted join below cannot emit a row before the CTE has run.
            // The change notice rides in the same statement: no extra round trip per batch.
            try await connection.query("""
                WITH event_lock AS MATERIALIZED (SELECT pg_advisory_xact_lock(4242, hashtext(\(event.id)))),
                    notice AS MATERIALIZED (SELECT pg_notify(\(Self.changeChannel), \(event.id)) FROM event_lock)
                INSERT INTO check_ins (event_id, device_id, guest_id, scanned_at, station, operator_name, source, direction,
                    status, decision, reason, prev_by, prev_station, prev_device, prev_at, received_at, uploaded_by, flag)
                SELECT \(event.id), d, g, s, st, op, src, dir, status, decision, NULLIF(reason, ''), NULLIF(pb, ''), NULLIF(ps, ''),
                    NULLIF(pd, ''), NULLIF(pa, -1), \(now.milliseconds), \(uploader.staffID), NULLIF(fl, '')
                FROM event_lock, notice, unnest(\(devices)::text[], \(guestColumn)::text[], \(scanned)::bigint[], \(stations)::text[], \(operators)::text[],
                    \(sources)::text[], \(directions)::text[], \(statuses)::text[], \(decisions)::text[], \(reasons)::text[],
                    \(prevBy)::text[], \(prevStation)::text[], \(prevDevice)::text[], \(prevAt)::bigint[], \(flags)::text[])
                    WITH ORDINALITY AS u(d, g, s, st, op, src, dir, status, decision, reason, pb, ps, pd, pa, fl, n)
                ORDER BY n
                """, logger: logger)
            return (decided.results, decided.rows.count)
        }
        if checkInStatistics.record(written) {
            Task.detached { [client, logger, checkInStatistics] in
                defer { checkInStatistics.finished() }
                do { try await client.query("ANALYZE check_ins", logger: logger) } catch {
                    logger.warning("could not refresh check-in statistics", metadata: ["error": "\(String(reflecting: error))"])
                }
            }
        }
        return results
    }

    public func ingestWalkIns(event: EventSummary, items: [WalkInUpload], uploader: Uploader, now: Timestamp) async throws -> [WalkInResult] {
        try await transaction { connection in
            try await Self.lockEvent(connection, event.id, logger: logger)
            var results: [WalkInResult] = []
            let types = Set(try await rows("SELECT id FROM access_types WHERE event_id = \(event.id)", on: connection).map { try $0["id"].decode(String.self) })
            for item in items {
                let recorded = try await rows("""
                    SELECT g.possible_duplicate_of, g.access_type_id, w.review FROM guests g
                    LEFT JOIN walk_ins w ON w.event_id = g.event_id AND w.guest_id = g.id
                    WHERE g.event_id = \(event.id) AND g.id = \(item.guestID)
                    """, on: connection).first.map {
                    WalkInResult(
                        guestID: item.guestID, status: .accepted, possibleDuplicateOf: try $0["possible_duplicate_of"].decode(String?.self),
                        accessTypeID: try $0["access_type_id"].decode(String.self), review: try $0["review"].decode(String?.self))
                }
                var sameEmail: String?
                if !item.email.isEmpty {
                    sameEmail = try await rows("""
                        SELECT id FROM guests WHERE event_id = \(event.id) AND lower(email) = lower(\(item.email)) AND NOT deleted ORDER BY walk_in, id LIMIT 1
                        """, on: connection).first.map { try $0["id"].decode(String.self) }
                }
                let facts = WalkInDecider.Facts(
                    recorded: recorded,
                    codeTaken: try await !rows("SELECT 1 FROM guests WHERE event_id = \(event.id) AND code = \(item.code)", on: connection).isEmpty,
                    accessTypes: types, sameEmail: sameEmail)
                switch WalkInDecider.decide(item, facts: facts) {
                case .answer(let result):
                    results.append(result)
                case .record(let type, let review, let twin, let result):
                    try await connection.query("""
                        INSERT INTO guests (event_id, id, code, name, email, company, access_type_id, walk_in, possible_duplicate_of)
                        VALUES (\(event.id), \(item.guestID), \(item.code), \(item.name), \(item.email), \(item.company), \(type), true, \(twin))
                        """, logger: logger)
                    try await connection.query("""
                        INSERT INTO walk_ins (event_id, guest_id, device_id, station, operator_name, uploaded_by, created_at, received_at,
                            requested_access_type_id, access_type_id, review)
                        VALUES (\(event.id), \(item.guestID), \(item.deviceID), \(item.station), \(item.operatorName), \(uploader.staffID),
                            \(item.createdAt.milliseconds), \(now.milliseconds), \(item.accessTypeID), \(type), \(review))
                        """, logger: logger)
                    try await Self.announce(connection, event.id, logger: logger)
                    results.append(result)
                }
            }
            return results
        }
    }

    public func undo(event: EventSummary, items: [UndoUpload], caller: Uploader, now: Timestamp) async throws -> [UndoResult] {
        try await transaction { connection in
            try await Self.lockGuests(connection, event.id, items.map(\.key.guestID), logger: logger)
            try await Self.lockEvent(connection, event.id, logger: logger)
            var results: [UndoResult] = []
            for item in items {
                results.append(try await applyUndo(connection, event: event, item: item, caller: caller, now: now).result)
            }
            return results
        }
    }

    /// Decides one undo (``UndoDecider``), marks the check-in undone when it says so and logs the
    /// request, inside the caller's transaction (holding the guest's and the event's locks): the
    /// stations' uploads and the dashboard's undo take this one path.
    func applyUndo(_ connection: PostgresConnection, event: EventSummary, item: UndoUpload, caller: Uploader, now: Timestamp) async throws -> UndoDecider.Decision {
        let key = item.key
        let row = try await rows("""
            SELECT id, undone_at, received_at FROM check_ins WHERE event_id = \(event.id) AND device_id = \(key.deviceID)
                AND guest_id = \(key.guestID) AND scanned_at = \(key.scannedAt.milliseconds) AND status = 'accepted'
            """, on: connection).first
        let decision = UndoDecider.decide(
            item, recorded: try row.map {
                UndoDecider.Recorded(
                    recordedAt: Timestamp(milliseconds: try $0["received_at"].decode(Int64.self)), undone: try $0["undone_at"].decode(Int64?.self) != nil)
            },
            caller: caller, event: event, now: now)
        if decision.markUndone, let row {
            let id = try row["id"].decode(Int64.self)
            try await connection.query("UPDATE check_ins SET undone_at = \(item.undoneAt.milliseconds), seq = nextval('change_seq') WHERE id = \(id)", logger: logger)
            try await Self.announce(connection, event.id, logger: logger)
        }
        let result = decision.result
        try await connection.query("""
            INSERT INTO undo_log (event_id, device_id, guest_id, scanned_at, undone_at, station, operator_name, reason, status, received_at, uploaded_by)
            VALUES (\(event.id), \(key.deviceID), \(key.guestID), \(key.scannedAt.milliseconds), \(item.undoneAt.milliseconds), \(item.station),
                    \(item.operatorName), \(item.reason), \(result.status.rawValue), \(now.milliseconds), \(caller.staffID))
            """, logger: logger)
        return decision
    }

    public func stats(event: String) async throws -> EventStats {
        try await requireEvent(event)
        var binds = PostgresBindings()
        binds.append(event)
        let groups = try await rows(PostgresQuery(unsafeSQL: StatsSQL.perAccessType, binds: binds)).map {
            StatsGroup(
                id: try $0["id"].decode(String.self), expected: try $0["expected"].decode(Int.self),
                checkedIn: try $0["checked_in"].decode(Int.self), inside: try $0["inside"].decode(Int.self))
        }
        let stations = try await rows(PostgresQuery(unsafeSQL: StatsSQL.perStation, binds: binds)).map {
            StatsGroup(id: try $0["station"].decode(String.self), expected: 0, checkedIn: try $0["checked_in"].decode(Int.self), inside: 0)
        }
        let counts = try await rows(PostgresQuery(unsafeSQL: StatsSQL.counts, binds: binds))[0]
        return EventStats(
            expected: groups.map(\.expected).reduce(0, +), checkedIn: groups.map(\.checkedIn).reduce(0, +),
            inside: groups.map(\.inside).reduce(0, +), duplicates: try counts["duplicates"].decode(Int.self),
            conflicts: try counts["conflicts"].decode(Int.self), accessTypes: groups, stations: stations,
            flaggedExits: try counts["flagged_exits"].decode(Int.self))
    }

    public func conflicts(event: String) async throws -> [Conflict] {
        var binds = PostgresBindings()
        binds.append(event)
        return try await rows(PostgresQuery(unsafeSQL: StatsSQL.conflicts, binds: binds)).map {
            Conflict(
                guestID: try $0["guest_id"].decode(String.self),
                first: PreviousCheckIn(
                    by: try $0["prev_by"].decode(String?.self) ?? "", station: try $0["prev_station"].decode(String?.self) ?? "",
                    deviceID: try $0["prev_device"].decode(String?.self) ?? "", at: Timestamp(milliseconds: try $0["prev_at"].decode(Int64?.self) ?? 0)),
                second: PreviousCheckIn(
                    by: try $0["operator_name"].decode(String.self), station: try $0["station"].decode(String.self),
                    deviceID: try $0["device_id"].decode(String.self), at: Timestamp(milliseconds: try $0["scanned_at"].decode(Int64.self))))
        }
    }

    public func flaggedExits(event: String) async throws -> [FlaggedExit] {
        var binds = PostgresBindings()
        binds.append(event)
        return try await rows(PostgresQuery(unsafeSQL: StatsSQL.flaggedExits, binds: binds)).compactMap { row in
            try CheckInFlag(rawValue: row["flag"].decode(String.self)).map {
                FlaggedExit(guestID: try row["guest_id"].decode(String.self), flag: $0, exit: PreviousCheckIn(
                    by: try row["operator_name"].decode(String.self), station: try row["station"].decode(String.self),
                    deviceID: try row["device_id"].decode(String.self), at: Timestamp(milliseconds: try row["scanned_at"].decode(Int64.self))))
            }
        }
    }

    public func walkInReviews(event: String) async throws -> [WalkInReview] {
        var binds = PostgresBindings()
        binds.append(event)
        return try await rows(PostgresQuery(unsafeSQL: StatsSQL.walkInReviews, binds: binds)).map {
            WalkInReview(
                guestID: try $0["guest_id"].decode(String.self), requestedAccessTypeID: try $0["requested_access_type_id"].decode(String.self),
                accessTypeID: try $0["access_type_id"].decode(String.self), review: try $0["review"].decode(String.self),
                deviceID: try $0["device_id"].decode(String.self), station: try $0["station"].decode(String.self),
                operatorName: try $0["operator_name"].decode(String.self), uploadedBy: try $0["uploaded_by"].decode(String.self),
                createdAt: Timestamp(milliseconds: try $0["created_at"].decode(Int64.self)))
        }
    }
}
