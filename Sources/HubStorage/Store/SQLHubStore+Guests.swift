import CheckInCore
import HubAPI

/// The dashboard's guest lookup and guest changes (``GuestRepository``).
extension SQLHubStore {
    public func findGuests(event: String, matching query: GuestQuery, limit: Int) async throws -> [GuestRecord] {
        guard !query.isEmpty, limit > 0 else { return [] }
        return try await database.rows(SQL(GuestLookupSQL.search(like: database.dialect.words.caseInsensitiveLike), binds: [
            .text(event), .text(query.ticketCode), .text(query.lowercased), .text(query.namePattern), .integer(Int64(limit)),
        ])) { try GuestRecord(row: $0) }
    }

    public func guestRecord(event: String, id: String) async throws -> GuestRecord? {
        try await database.rows(SQL(GuestLookupSQL.one, binds: [.text(event), .text(id)])) { try GuestRecord(row: $0) }.first
    }

    public func guestHistory(event: String, guestID: String, limit: Int) async throws -> [GuestMovement] {
        try await database.rows(SQL(GuestLookupSQL.history, binds: [.text(event), .text(guestID), .integer(Int64(limit))])) {
            try GuestMovement(row: $0)
        }
    }

    public func guestActions(event: String, guestID: String, limit: Int) async throws -> [OrganizerAction] {
        try await database.rows(SQL(GuestLookupSQL.actions, binds: [.text(event), .text(guestID), .integer(Int64(limit))])) {
            try OrganizerAction(row: $0)
        }
    }

    public func setRevoked(event: String, guestID: String, revoked: Bool, action: OrganizerAction?) async throws -> Bool {
        try await database.write(changing: event) { connection in
            try await connection.lockEvent(event)
            let changed = try await connection.exists("""
                UPDATE guests SET revoked = \(revoked), seq = nextval('change_seq')
                WHERE event_id = \(event) AND id = \(guestID) AND NOT deleted RETURNING id
                """)
            // An unknown guest leaves no action and wakes nobody.
            guard changed else { return false }
            try await connection.announce(event)
            try await Self.record(action, on: connection)
            return true
        }
    }
}
