import CheckInCore
import HubAPI
import HubCore

/// The review page (``ReviewRepository``): marks, merges and the dashboard's undo, each with its
/// ``OrganizerAction`` in the same transaction.
extension SQLHubStore {
    public func reviewItems(event: String, limit: Int) async throws -> [ReviewItem] {
        try await database.rows(SQL(ReviewSQL.items, binds: [.text(event), .integer(Int64(limit))])) { try ReviewItem(row: $0) }.compactMap { $0 }
    }

    public func markReviewed(event: String, kind: ReviewItem.Kind, subject: String, by actor: StaffInfo, now: Timestamp) async throws -> ReviewMarkOutcome {
        let probe: [SQLValue]
        if kind == .walkIn {
            probe = [.text(event), .text(subject)]
        } else {
            guard let key = IdempotencyKey(subject) else { return .notFound }
            probe = [.text(event), .text(key.deviceID), .text(key.guestID), key.scannedAt.sqlValue]
        }
        return try await database.write(changing: nil) { connection -> ReviewMarkOutcome in
            guard try await connection.exists(SQL(ReviewSQL.exists(kind), binds: probe)) else { return .notFound }
            let mark = ReviewMark(resolution: .reviewed, actorID: actor.id, actorName: actor.name, at: now)
            let marked = try await connection.exists(SQL(ReviewSQL.insertMark + " RETURNING 1", binds: Self.markBinds(event, kind, subject, mark)))
            guard marked else {
                let earlier = try await connection.row(SQL(ReviewSQL.mark, binds: [.text(event), .text(kind.rawValue), .text(subject)])) {
                    try ReviewMark(row: $0)
                }
                return .alreadyMarked((earlier ?? nil) ?? mark)
            }
            try await Self.record(OrganizerAction(eventID: event, actor: actor, kind: kind.auditKind, subject: subject,
                                                  detail: "\(kind.rawValue) reviewed, kept as it is", at: now), on: connection)
            return .marked(mark)
        }
    }

    public func mergeWalkIn(event: String, walkIn: String, into registration: String, by actor: StaffInfo, now: Timestamp) async throws -> MergeOutcome {
        try await database.write(changing: event) { connection in
            try await connection.lockGuests(event, [walkIn, registration])
            try await connection.lockEvent(event)
            func guest(_ id: String) async throws -> MergeDecider.Guest? {
                try await connection.row("SELECT walk_in, deleted, merged_into FROM guests WHERE event_id = \(event) AND id = \(id)") {
                    MergeDecider.Guest(walkIn: try $0.bool("walk_in"), deleted: try $0.bool("deleted"), mergedInto: try $0.optionalText("merged_into"))
                }
            }
            let outcome = MergeDecider.decide(walkInID: walkIn, registrationID: registration, walkIn: try await guest(walkIn),
                                              registration: try await guest(registration))
            guard outcome.changed else { return outcome }
            // The walk-in's change comes first, its re-pointed check-ins after: every station
            // hears of the merge, and one that never knew the walk-in gets the check-ins under
            // the registration.
            try await connection.execute("""
                UPDATE guests SET deleted = true, merged_into = \(registration), seq = nextval('change_seq') WHERE event_id = \(event) AND id = \(walkIn)
                """)
            let moved = try await connection.rows("""
                WITH moving AS (
                    SELECT id FROM check_ins c WHERE event_id = \(event) AND guest_id = \(walkIn) AND NOT EXISTS (
                        SELECT 1 FROM check_ins d WHERE d.event_id = c.event_id AND d.device_id = c.device_id AND d.guest_id = \(registration)
                            AND d.scanned_at = c.scanned_at))
                UPDATE check_ins SET guest_id = \(registration), seq = nextval('change_seq') FROM moving WHERE check_ins.id = moving.id
                RETURNING check_ins.id
                """) { _ in () }.count
            try await connection.execute("UPDATE undo_log SET guest_id = \(registration) WHERE event_id = \(event) AND guest_id = \(walkIn)")
            let mark = ReviewMark(resolution: .merged, actorID: actor.id, actorName: actor.name, at: now)
            try await connection.execute(SQL(ReviewSQL.upsertMark, binds: Self.markBinds(event, .walkIn, walkIn, mark)))
            try await connection.announce(event)
            try await Self.record(OrganizerAction(eventID: event, actor: actor, kind: .walkInMerged, subject: walkIn,
                                                  detail: "merged into \(registration), \(moved) check-in(s) moved", at: now), on: connection)
            return outcome
        }
    }

    public func undoAdmission(event: EventSummary, key: IdempotencyKey, by actor: StaffInfo, now: Timestamp) async throws -> UndoResult {
        try await database.write(changing: event.id) { connection in
            try await connection.lockGuests(event.id, [key.guestID])
            try await connection.lockEvent(event.id)
            let decision = try await Self.applyUndo(.dashboard(key: key, actor: actor, now: now), event: event, caller: Uploader(dashboard: actor),
                                                    now: now, on: connection)
            if decision.markUndone {
                try await Self.record(OrganizerAction(eventID: event.id, actor: actor, kind: .admissionUndone, subject: key.description,
                                                      detail: "undone on the review page", at: now), on: connection)
            }
            return decision.result
        }
    }

    /// ``ReviewSQL/insertMark``'s and ``ReviewSQL/upsertMark``'s parameters.
    private static func markBinds(_ event: String, _ kind: ReviewItem.Kind, _ subject: String, _ mark: ReviewMark) -> [SQLValue] {
        [.text(event), .text(kind.rawValue), .text(subject), .text(mark.resolution.rawValue), .text(mark.actorID), .text(mark.actorName),
         mark.at.sqlValue]
    }
}
