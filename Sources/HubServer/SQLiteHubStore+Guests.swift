import CheckInCore
import GRDB
import HubAPI

/// The dashboard's guest lookup and guest changes on SQLite (``GuestRepository``).
extension SQLiteHubStore {
    public func findGuests(event: String, matching query: GuestQuery, limit: Int) async throws -> [GuestRecord] {
        guard !query.isEmpty, limit > 0 else { return [] }
        return try await pool.read { db in
            try Row.fetchAll(db, sql: StatsSQL.sqlite(GuestLookupSQL.search(like: "LIKE")), arguments: [
                event, query.ticketCode, query.lowercased, query.namePattern, limit,
            ]).map(Self.record)
        }
    }

    public func guestRecord(event: String, id: String) async throws -> GuestRecord? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: StatsSQL.sqlite(GuestLookupSQL.one), arguments: [event, id]).map(Self.record)
        }
    }

    public func guestHistory(event: String, guestID: String, limit: Int) async throws -> [GuestMovement] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: StatsSQL.sqlite(GuestLookupSQL.history), arguments: [event, guestID, limit]).map { row in
                GuestMovement(
                    deviceID: row["device_id"], station: row["station"], operatorName: row["operator_name"], source: row["source"],
                    direction: row["direction"], status: row["status"], decision: row["decision"], reason: row["reason"],
                    scannedAt: Timestamp(milliseconds: row["scanned_at"]), receivedAt: Timestamp(milliseconds: row["received_at"]),
                    undone: (row["undone"] as Int) != 0)
            }
        }
    }

    public func guestActions(event: String, guestID: String, limit: Int) async throws -> [OrganizerAction] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: StatsSQL.sqlite(GuestLookupSQL.actions), arguments: [event, guestID, limit]).map { row in
                OrganizerAction(eventID: row["event_id"], actorID: row["actor_id"], actorName: row["actor_name"],
                                kind: OrganizerAction.Kind(rawValue: row["kind"]) ?? .manualCheckIn, subject: row["subject"],
                                detail: row["detail"], at: Timestamp(milliseconds: row["at"]))
            }
        }
    }

    public func setRevoked(event: String, guestID: String, revoked: Bool, action: OrganizerAction) async throws -> Bool {
        try await change(event) { db in
            // An unknown guest draws no change sequence number and leaves no action.
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM guests WHERE event_id = ? AND id = ? AND deleted = 0",
                                    arguments: [event, guestID]) == true else { return false }
            try db.execute(sql: "UPDATE guests SET revoked = ?, seq = ? WHERE event_id = ? AND id = ?",
                           arguments: [revoked, try Self.nextSeq(db), event, guestID])
            try Self.insertAction(db, action)
            return true
        }
    }

    public func manualCheckIn(event: EventSummary, _ item: CheckInUpload, uploader: Uploader, now: Timestamp,
                              audit: @escaping @Sendable (CheckInResult) -> OrganizerAction) async throws -> CheckInResult {
        try await change(event.id) { db in
            let results = try Self.ingest(db, event: event, items: [item], uploader: uploader, now: now)
            try Self.insertAction(db, audit(results[0]))
            return results[0]
        }
    }

    static func record(_ row: Row) -> GuestRecord {
        GuestRecord(
            guest: Guest(id: row["id"], code: TicketCode(stored: row["code"]), name: row["name"], email: row["email"], company: row["company"],
                         accessTypeID: row["access_type_id"], revoked: row["revoked"], walkIn: row["walk_in"], facts: facts(row)),
            entries: row["entries"], lastDirection: (row["last_direction"] as String?).flatMap(Direction.init(rawValue:)))
    }
}
