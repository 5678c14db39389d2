import CheckInCore
import HubAPI
import PostgresNIO

/// The dashboard's guest lookup and guest changes on PostgreSQL (``GuestRepository``).
extension PostgresHubStore {
    public func findGuests(event: String, matching query: GuestQuery, limit: Int) async throws -> [GuestRecord] {
        guard !query.isEmpty, limit > 0 else { return [] }
        var binds = PostgresBindings()
        binds.append(event)
        binds.append(query.ticketCode)
        binds.append(query.lowercased)
        binds.append(query.namePattern)
        binds.append(Int64(limit))
        return try await rows(PostgresQuery(unsafeSQL: GuestLookupSQL.search(like: "ILIKE"), binds: binds)).map(Self.record)
    }

    public func guestRecord(event: String, id: String) async throws -> GuestRecord? {
        var binds = PostgresBindings()
        binds.append(event)
        binds.append(id)
        return try await rows(PostgresQuery(unsafeSQL: GuestLookupSQL.one, binds: binds)).first.map(Self.record)
    }

    public func guestHistory(event: String, guestID: String, limit: Int) async throws -> [GuestMovement] {
        var binds = PostgresBindings()
        binds.append(event)
        binds.append(guestID)
        binds.append(Int64(limit))
        return try await rows(PostgresQuery(unsafeSQL: GuestLookupSQL.history, binds: binds)).map { row in
            GuestMovement(
                deviceID: try row["device_id"].decode(String.self), station: try row["station"].decode(String.self),
                operatorName: try row["operator_name"].decode(String.self), source: try row["source"].decode(String.self),
                direction: try row["direction"].decode(String.self), status: try row["status"].decode(String.self),
                decision: try row["decision"].decode(String.self), reason: try row["reason"].decode(String?.self),
                scannedAt: Timestamp(milliseconds: try row["scanned_at"].decode(Int64.self)),
                receivedAt: Timestamp(milliseconds: try row["received_at"].decode(Int64.self)),
                undone: try row["undone"].decode(Int.self) != 0)
        }
    }

    public func guestActions(event: String, guestID: String, limit: Int) async throws -> [OrganizerAction] {
        var binds = PostgresBindings()
        binds.append(event)
        binds.append(guestID)
        binds.append(Int64(limit))
        return try await rows(PostgresQuery(unsafeSQL: GuestLookupSQL.actions, binds: binds)).map { row in
            OrganizerAction(eventID: try row["event_id"].decode(String?.self), actorID: try row["actor_id"].decode(String.self),
                            actorName: try row["actor_name"].decode(String.self),
                            kind: OrganizerAction.Kind(rawValue: try row["kind"].decode(String.self)) ?? .manualCheckIn,
                            subject: try row["subject"].decode(String.self), detail: try row["detail"].decode(String.self),
                            at: Timestamp(milliseconds: try row["at"].decode(Int64.self)))
        }
    }

    public func setRevoked(event: String, guestID: String, revoked: Bool, action: OrganizerAction) async throws -> Bool {
        try await transaction { connection in
            try await Self.lockEvent(connection, event, logger: logger)
            let changed = try await !rows("""
                UPDATE guests SET revoked = \(revoked), seq = nextval('change_seq')
                WHERE event_id = \(event) AND id = \(guestID) AND NOT deleted RETURNING id
                """, on: connection).isEmpty
            // An unknown guest leaves no action and wakes nobody.
            guard changed else { return false }
            try await Self.announce(connection, event, logger: logger)
            try await Self.insertAction(connection, action, logger: logger)
            return true
        }
    }

    public func manualCheckIn(event: EventSummary, _ item: CheckInUpload, uploader: Uploader, now: Timestamp,
                              audit: @escaping @Sendable (CheckInResult) -> OrganizerAction) async throws -> CheckInResult {
        try await ingest(event: event, items: [item], uploader: uploader, now: now, audit: { audit($0[0]) })[0]
    }

    static func record(_ row: PostgresRandomAccessRow) throws -> GuestRecord {
        GuestRecord(
            guest: Guest(
                id: try row["id"].decode(String.self), code: TicketCode(stored: try row["code"].decode(String.self)),
                name: try row["name"].decode(String.self), email: try row["email"].decode(String.self),
                company: try row["company"].decode(String.self), accessTypeID: try row["access_type_id"].decode(String.self),
                revoked: try row["revoked"].decode(Bool.self), walkIn: try row["walk_in"].decode(Bool.self), facts: try facts(row)),
            entries: Int(try row["entries"].decode(Int64.self)),
            lastDirection: try row["last_direction"].decode(String?.self).flatMap(Direction.init(rawValue:)))
    }
}
