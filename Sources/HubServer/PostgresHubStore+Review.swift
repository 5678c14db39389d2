import CheckInCore
import HubAPI
import Logging
import PostgresNIO

/// The review page on PostgreSQL (0009_review_marks.sql): marks, merges and the dashboard's undo,
/// each with its ``OrganizerAction`` in the same transaction.
extension PostgresHubStore {
    public func reviewItems(event: String, limit: Int) async throws -> [ReviewItem] {
        var binds = PostgresBindings()
        binds.append(event)
        binds.append(limit)
        return try await rows(PostgresQuery(unsafeSQL: ReviewSQL.items, binds: binds)).compactMap(Self.reviewItem)
    }

    static func reviewItem(_ row: PostgresRandomAccessRow) throws -> ReviewItem? {
        guard let kind = ReviewItem.Kind(rawValue: try row["kind"].decode(String.self)) else { return nil }
        let guestID = try row["guest_id"].decode(String.self)
        func text(_ column: String) throws -> String? { try row[column].decode(String?.self) }
        let first: ReviewUpload? = try row["first_at"].decode(Int64?.self).map {
            ReviewUpload(deviceID: try text("first_device") ?? "", guestID: guestID, at: Timestamp(milliseconds: $0),
                         station: try text("first_station") ?? "", operatorName: try text("first_by") ?? "")
        }
        let mark: ReviewMark? = try text("mark_resolution").flatMap(ReviewMark.Resolution.init(rawValue:)).map {
            ReviewMark(resolution: $0, actorID: try row["mark_actor_id"].decode(String.self), actorName: try row["mark_actor_name"].decode(String.self),
                       at: Timestamp(milliseconds: try row["mark_at"].decode(Int64.self)))
        }
        return ReviewItem(
            kind: kind, subject: try row["subject"].decode(String.self),
            guest: ReviewGuest(id: guestID, name: try text("guest_name") ?? "", code: try text("guest_code") ?? "", email: try text("guest_email") ?? ""),
            upload: ReviewUpload(deviceID: try row["device_id"].decode(String.self), guestID: guestID,
                                 at: Timestamp(milliseconds: try row["at_ms"].decode(Int64.self)), station: try row["station"].decode(String.self),
                                 operatorName: try row["operator_name"].decode(String.self)),
            decision: try row["decision"].decode(String.self), reason: try text("reason"), first: first,
            firstUndone: try row["first_undone"].decode(Int.self) == 1,
            registration: try text("reg_id").map {
                ReviewGuest(id: $0, name: try text("reg_name") ?? "", code: try text("reg_code") ?? "", email: try text("reg_email") ?? "")
            },
            mark: mark)
    }

    public func markReviewed(event: String, kind: ReviewItem.Kind, subject: String, by actor: StaffInfo, now: Timestamp) async throws -> ReviewMarkOutcome {
        var probe = PostgresBindings()
        probe.append(event)
        if kind == .walkIn {
            probe.append(subject)
        } else {
            guard let key = IdempotencyKey(subject) else { return .notFound }
            probe.append(key.deviceID)
            probe.append(key.guestID)
            probe.append(key.scannedAt.milliseconds)
        }
        let binds = probe
        return try await transaction { connection in
            guard try await !rows(PostgresQuery(unsafeSQL: ReviewSQL.exists(kind), binds: binds), on: connection).isEmpty else { return .notFound }
            let mark = ReviewMark(resolution: .reviewed, actorID: actor.id, actorName: actor.name, at: now)
            let inserted = try await rows("""
                INSERT INTO review_marks (event_id, kind, subject, resolution, actor_id, actor_name, at)
                VALUES (\(event), \(kind.rawValue), \(subject), \(mark.resolution.rawValue), \(actor.id), \(actor.name), \(now.milliseconds))
                ON CONFLICT (event_id, kind, subject) DO NOTHING RETURNING 1
                """, on: connection)
            guard !inserted.isEmpty else {
                return .alreadyMarked(try await existingMark(connection, event: event, kind: kind, subject: subject) ?? mark)
            }
            try await Self.insertAction(connection, OrganizerAction(eventID: event, actor: actor, kind: kind.auditKind, subject: subject,
                                                                    detail: "\(kind.rawValue) reviewed, kept as it is", at: now), logger: logger)
            return .marked(mark)
        }
    }

    private func existingMark(_ connection: PostgresConnection, event: String, kind: ReviewItem.Kind, subject: String) async throws -> ReviewMark? {
        try await rows("""
            SELECT resolution, actor_id, actor_name, at FROM review_marks WHERE event_id = \(event) AND kind = \(kind.rawValue) AND subject = \(subject)
            """, on: connection).first.flatMap { row in
            try ReviewMark.Resolution(rawValue: row["resolution"].decode(String.self)).map {
                ReviewMark(resolution: $0, actorID: try row["actor_id"].decode(String.self), actorName: try row["actor_name"].decode(String.self),
                           at: Timestamp(milliseconds: try row["at"].decode(Int64.self)))
            }
        }
    }

    public func mergeWalkIn(event: String, walkIn: String, into registration: String, by actor: StaffInfo, now: Timestamp) async throws -> MergeOutcome {
        try await transaction { connection in
            try await Self.lockGuests(connection, event, [walkIn, registration], logger: logger)
            try await Self.lockEvent(connection, event, logger: logger)
            func guest(_ id: String) async throws -> MergeDecider.Guest? {
                try await rows("SELECT walk_in, deleted, merged_into FROM guests WHERE event_id = \(event) AND id = \(id)", on: connection).first.map {
                    MergeDecider.Guest(walkIn: try $0["walk_in"].decode(Bool.self), deleted: try $0["deleted"].decode(Bool.self),
                                       mergedInto: try $0["merged_into"].decode(String?.self))
                }
            }
            let walkInRow = try await guest(walkIn), registrationRow = try await guest(registration)
            let outcome = MergeDecider.decide(walkInID: walkIn, registrationID: registration, walkIn: walkInRow, registration: registrationRow)
            guard outcome.changed else { return outcome }
            try await Self.announce(connection, event, logger: logger)
            // The walk-in's change comes first, its re-pointed check-ins after (see the SQLite store).
            try await connection.query("""
                UPDATE guests SET deleted = true, merged_into = \(registration), seq = nextval('change_seq') WHERE event_id = \(event) AND id = \(walkIn)
                """, logger: logger)
            let moved = try await rows("""
                WITH moving AS (
                    SELECT id FROM check_ins c WHERE event_id = \(event) AND guest_id = \(walkIn) AND NOT EXISTS (
                        SELECT 1 FROM check_ins d WHERE d.event_id = c.event_id AND d.device_id = c.device_id AND d.guest_id = \(registration)
                            AND d.scanned_at = c.scanned_at)
                    ORDER BY seq)
                UPDATE check_ins SET guest_id = \(registration), seq = nextval('change_seq') FROM moving WHERE check_ins.id = moving.id
                RETURNING check_ins.id
                """, on: connection).count
            try await connection.query("UPDATE undo_log SET guest_id = \(registration) WHERE event_id = \(event) AND guest_id = \(walkIn)", logger: logger)
            try await connection.query("""
                INSERT INTO review_marks (event_id, kind, subject, resolution, actor_id, actor_name, at)
                VALUES (\(event), \(ReviewItem.Kind.walkIn.rawValue), \(walkIn), \(ReviewMark.Resolution.merged.rawValue), \(actor.id), \(actor.name),
                        \(now.milliseconds))
                ON CONFLICT (event_id, kind, subject) DO UPDATE SET resolution = excluded.resolution, actor_id = excluded.actor_id,
                    actor_name = excluded.actor_name, at = excluded.at
                """, logger: logger)
            try await Self.insertAction(connection, OrganizerAction(eventID: event, actor: actor, kind: .walkInMerged, subject: walkIn,
                                                                    detail: "merged into \(registration), \(moved) check-in(s) moved", at: now), logger: logger)
            return outcome
        }
    }

    public func undoAdmission(event: EventSummary, key: IdempotencyKey, by actor: StaffInfo, now: Timestamp) async throws -> UndoResult {
        try await transaction { connection in
            try await Self.lockGuests(connection, event.id, [key.guestID], logger: logger)
            try await Self.lockEvent(connection, event.id, logger: logger)
            let decision = try await applyUndo(connection, event: event, item: .dashboard(key: key, actor: actor, now: now),
                                               caller: Uploader(dashboard: actor), now: now)
            if decision.markUndone {
                try await Self.insertAction(connection, OrganizerAction(eventID: event.id, actor: actor, kind: .admissionUndone, subject: key.description,
                                                                        detail: "undone on the review page", at: now), logger: logger)
            }
            return decision.result
        }
    }
}
