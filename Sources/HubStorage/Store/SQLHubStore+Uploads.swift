import CheckInCore
import HubAPI
import HubCore

/// Uploaded walk-ins and undos (``SyncRepository``), and the undo the review page makes through
/// the same path.
extension SQLHubStore {
    public func ingestWalkIns(event: EventSummary, items: [WalkInUpload], uploader: Uploader, now: Timestamp) async throws -> [WalkInResult] {
        try await database.write(changing: event.id) { connection in
            // Decided one after the other under the event lock: an earlier walk-in of the batch is a fact for the next.
            try await connection.lockEvent(event.id)
            let types = Set(try await connection.rows("SELECT id FROM access_types WHERE event_id = \(event.id)") { try $0.text("id") })
            var results: [WalkInResult] = []
            for item in items {
                var sameEmail: String?
                if !item.email.isEmpty {
                    sameEmail = try await connection.row("""
                        SELECT id FROM guests WHERE event_id = \(event.id) AND lower(email) = lower(\(item.email)) AND NOT deleted
                        ORDER BY walk_in, id LIMIT 1
                        """) { try $0.text("id") }
                }
                let facts = WalkInDecider.Facts(
                    recorded: try await connection.row("""
                        SELECT g.possible_duplicate_of, g.access_type_id, w.review FROM guests g
                        LEFT JOIN walk_ins w ON w.event_id = g.event_id AND w.guest_id = g.id
                        WHERE g.event_id = \(event.id) AND g.id = \(item.guestID)
                        """) {
                        WalkInResult(guestID: item.guestID, status: .accepted, possibleDuplicateOf: try $0.optionalText("possible_duplicate_of"),
                                     accessTypeID: try $0.text("access_type_id"), review: try $0.optionalText("review"))
                    },
                    codeTaken: try await connection.exists("SELECT 1 FROM guests WHERE event_id = \(event.id) AND code = \(item.code)"),
                    accessTypes: types, sameEmail: sameEmail)
                switch WalkInDecider.decide(item, facts: facts) {
                case .answer(let result):
                    results.append(result)
                case .record(let type, let review, let twin, let result):
                    try await connection.execute("""
                        INSERT INTO guests (event_id, id, code, name, email, company, access_type_id, walk_in, possible_duplicate_of, seq)
                        VALUES (\(event.id), \(item.guestID), \(item.code), \(item.name), \(item.email), \(item.company), \(type), true, \(twin),
                            nextval('change_seq'))
                        """)
                    try await connection.execute("""
                        INSERT INTO walk_ins (event_id, guest_id, device_id, station, operator_name, uploaded_by, created_at, received_at,
                            requested_access_type_id, access_type_id, review)
                        VALUES (\(event.id), \(item.guestID), \(item.deviceID), \(item.station), \(item.operatorName), \(uploader.staffID),
                            \(item.createdAt), \(now), \(item.accessTypeID), \(type), \(review))
                        """)
                    try await connection.announce(event.id)
                    results.append(result)
                }
            }
            return results
        }
    }

    public func undo(event: EventSummary, items: [UndoUpload], caller: Uploader, now: Timestamp) async throws -> [UndoResult] {
        try await database.write(changing: event.id) { connection in
            try await connection.lockGuests(event.id, items.map(\.key.guestID))
            try await connection.lockEvent(event.id)
            var results: [UndoResult] = []
            for item in items {
                results.append(try await Self.applyUndo(item, event: event, caller: caller, now: now, on: connection).result)
            }
            return results
        }
    }

    /// Decides one undo (``UndoDecider``), marks the check-in undone when it says so and logs the
    /// request, inside the caller's transaction (holding the guest's and the event's locks): the
    /// stations' uploads and the dashboard's undo take this one path.
    static func applyUndo(_ item: UndoUpload, event: EventSummary, caller: Uploader, now: Timestamp,
                          on connection: any SQLConnection) async throws -> UndoDecider.Decision {
        let key = item.key
        let row = try await connection.row("""
            SELECT id, undone_at, received_at FROM check_ins WHERE event_id = \(event.id) AND device_id = \(key.deviceID)
                AND guest_id = \(key.guestID) AND scanned_at = \(key.scannedAt) AND status = 'accepted'
            """) { (id: try $0.integer("id"), recorded: UndoDecider.Recorded(recordedAt: try $0.time("received_at"),
                                                                             undone: try $0.optionalInteger("undone_at") != nil)) }
        let decision = UndoDecider.decide(item, recorded: row?.recorded, caller: caller, event: event, now: now)
        if decision.markUndone, let row {
            try await connection.execute("UPDATE check_ins SET undone_at = \(item.undoneAt), seq = nextval('change_seq') WHERE id = \(row.id)")
            try await connection.announce(event.id)
        }
        try await connection.execute("""
            INSERT INTO undo_log (event_id, device_id, guest_id, scanned_at, undone_at, station, operator_name, reason, status, received_at, uploaded_by)
            VALUES (\(event.id), \(key.deviceID), \(key.guestID), \(key.scannedAt), \(item.undoneAt), \(item.station),
                    \(item.operatorName), \(item.reason), \(decision.result.status.rawValue), \(now), \(caller.staffID))
            """)
        return decision
    }
}
