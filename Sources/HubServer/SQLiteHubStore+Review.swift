import CheckInCore
import GRDB
import HubAPI

/// The review page on SQLite (0009_review_marks.sql): marks, merges and the dashboard's undo,
/// each with its ``OrganizerAction`` in the same write transaction.
extension SQLiteHubStore {
    public func reviewItems(event: String, limit: Int) async throws -> [ReviewItem] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: StatsSQL.sqlite(ReviewSQL.items), arguments: [event, limit]).compactMap(Self.reviewItem)
        }
    }

    static func reviewItem(_ row: Row) -> ReviewItem? {
        guard let kind = ReviewItem.Kind(rawValue: row["kind"]) else { return nil }
        let guestID: String = row["guest_id"]
        let first: ReviewUpload? = (row["first_at"] as Int64?).map {
            ReviewUpload(deviceID: row["first_device"] ?? "", guestID: guestID, at: Timestamp(milliseconds: $0),
                         station: row["first_station"] ?? "", operatorName: row["first_by"] ?? "")
        }
        let mark: ReviewMark? = (row["mark_resolution"] as String?).flatMap(ReviewMark.Resolution.init(rawValue:)).map {
            ReviewMark(resolution: $0, actorID: row["mark_actor_id"], actorName: row["mark_actor_name"], at: Timestamp(milliseconds: row["mark_at"]))
        }
        return ReviewItem(
            kind: kind, subject: row["subject"],
            guest: ReviewGuest(id: guestID, name: row["guest_name"] ?? "", code: row["guest_code"] ?? "", email: row["guest_email"] ?? ""),
            upload: ReviewUpload(deviceID: row["device_id"], guestID: guestID, at: Timestamp(milliseconds: row["at_ms"]),
                                 station: row["station"], operatorName: row["operator_name"]),
            decision: row["decision"], reason: row["reason"], first: first, firstUndone: (row["first_undone"] as Int64?) == 1,
            registration: (row["reg_id"] as String?).map {
                ReviewGuest(id: $0, name: row["reg_name"] ?? "", code: row["reg_code"] ?? "", email: row["reg_email"] ?? "")
            },
            mark: mark)
    }

    public func markReviewed(event: String, kind: ReviewItem.Kind, subject: String, by actor: StaffInfo, now: Timestamp) async throws -> ReviewMarkOutcome {
        try await pool.write { db in
            let probe: StatementArguments
            if kind == .walkIn {
                probe = [event, subject]
            } else {
                guard let key = IdempotencyKey(subject) else { return .notFound }
                probe = [event, key.deviceID, key.guestID, key.scannedAt.milliseconds]
            }
            guard try Bool.fetchOne(db, sql: StatsSQL.sqlite(ReviewSQL.exists(kind)), arguments: probe) == true else { return .notFound }
            let mark = ReviewMark(resolution: .reviewed, actorID: actor.id, actorName: actor.name, at: now)
            try db.execute(sql: StatsSQL.sqlite(ReviewSQL.insertMark), arguments: [
                event, kind.rawValue, subject, mark.resolution.rawValue, actor.id, actor.name, now.milliseconds,
            ])
            guard db.changesCount > 0 else { return .alreadyMarked(try Self.mark(db, event: event, kind: kind, subject: subject) ?? mark) }
            try Self.insertAction(db, OrganizerAction(eventID: event, actor: actor, kind: kind.auditKind, subject: subject,
                                                      detail: "\(kind.rawValue) reviewed, kept as it is", at: now))
            return .marked(mark)
        }
    }

    static func mark(_ db: Database, event: String, kind: ReviewItem.Kind, subject: String) throws -> ReviewMark? {
        try Row.fetchOne(db, sql: StatsSQL.sqlite(ReviewSQL.mark), arguments: [event, kind.rawValue, subject]).flatMap { row in
            ReviewMark.Resolution(rawValue: row["resolution"]).map {
                ReviewMark(resolution: $0, actorID: row["actor_id"], actorName: row["actor_name"], at: Timestamp(milliseconds: row["at"]))
            }
        }
    }

    public func mergeWalkIn(event: String, walkIn: String, into registration: String, by actor: StaffInfo, now: Timestamp) async throws -> MergeOutcome {
        try await change(event) { db in
            func guest(_ id: String) throws -> MergeDecider.Guest? {
                try Row.fetchOne(db, sql: "SELECT walk_in, deleted, merged_into FROM guests WHERE event_id = ? AND id = ?", arguments: [event, id]).map {
                    MergeDecider.Guest(walkIn: $0["walk_in"], deleted: $0["deleted"], mergedInto: $0["merged_into"])
                }
            }
            let walkInRow = try guest(walkIn), registrationRow = try guest(registration)
            let outcome = MergeDecider.decide(walkInID: walkIn, registrationID: registration, walkIn: walkInRow, registration: registrationRow)
            guard outcome.changed else { return outcome }
            // The walk-in's change comes first, its re-pointed check-ins after: every station
            // hears of the merge, and one that never knew the walk-in gets the check-ins under
            // the registration.
            try db.execute(sql: "UPDATE guests SET deleted = 1, merged_into = ?, seq = ? WHERE event_id = ? AND id = ?",
                           arguments: [registration, try Self.nextSeq(db), event, walkIn])
            let moving = try Int64.fetchAll(db, sql: """
                SELECT id FROM check_ins c WHERE event_id = ? AND guest_id = ? AND NOT EXISTS (
                    SELECT 1 FROM check_ins d WHERE d.event_id = c.event_id AND d.device_id = c.device_id AND d.guest_id = ? AND d.scanned_at = c.scanned_at)
                ORDER BY seq
                """, arguments: [event, walkIn, registration])
            for id in moving {
                try db.execute(sql: "UPDATE check_ins SET guest_id = ?, seq = ? WHERE id = ?", arguments: [registration, try Self.nextSeq(db), id])
            }
            try db.execute(sql: "UPDATE undo_log SET guest_id = ? WHERE event_id = ? AND guest_id = ?", arguments: [registration, event, walkIn])
            try db.execute(sql: StatsSQL.sqlite(ReviewSQL.upsertMark), arguments: [
                event, ReviewItem.Kind.walkIn.rawValue, walkIn, ReviewMark.Resolution.merged.rawValue, actor.id, actor.name, now.milliseconds,
            ])
            try Self.insertAction(db, OrganizerAction(eventID: event, actor: actor, kind: .walkInMerged, subject: walkIn,
                                                      detail: "merged into \(registration), \(moving.count) check-in(s) moved", at: now))
            return outcome
        }
    }

    public func undoAdmission(event: EventSummary, key: IdempotencyKey, by actor: StaffInfo, now: Timestamp) async throws -> UndoResult {
        try await change(event.id) { db in
            let item = UndoUpload.dashboard(key: key, actor: actor, now: now)
            let decision = try Self.applyUndo(db, event: event, item: item, caller: Uploader(dashboard: actor), now: now)
            if decision.markUndone {
                try Self.insertAction(db, OrganizerAction(eventID: event.id, actor: actor, kind: .admissionUndone, subject: key.description,
                                                          detail: "undone on the review page", at: now))
            }
            return decision.result
        }
    }
}

extension UndoUpload {
    /// The undo a person makes on the review page: recorded as made at the dashboard, by them.
    static func dashboard(key: IdempotencyKey, actor: StaffInfo, now: Timestamp) -> UndoUpload {
        UndoUpload(key: key, undoneAt: now, station: "dashboard", operatorName: actor.name, reason: "undone on the review page")
    }
}

extension Uploader {
    /// A person at the dashboard: their role decides (``UndoPolicy``), no device.
    init(dashboard actor: StaffInfo) {
        self.init(staffID: actor.id, role: actor.role, deviceID: nil)
    }
}
