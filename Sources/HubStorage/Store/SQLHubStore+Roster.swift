import CheckInCore
import HubAPI
import HubCore

/// What stations download (``SyncRepository/rosterPage(event:after:limit:now:)``).
extension SQLHubStore {
    public func rosterPage(event: String, after cursor: Int64, limit: Int, now: Timestamp) async throws -> RosterPage {
        // One snapshot for the three tables: a change committing between two reads could
        // otherwise be skipped by the cursor.
        try await database.read { connection in
            try await Self.requireEvent(event, on: connection)
            let fetch = limit + 1
            var changes: [RosterPaging.Change] = []
            changes += try await connection.rows("""
                SELECT id, name, reentry, valid_from, valid_until, seq FROM access_types WHERE event_id = \(event) AND seq > \(cursor)
                ORDER BY seq LIMIT \(fetch)
                """) { row -> RosterPaging.Change in
                let type = RosterAccessType(
                    id: try row.text("id"), name: try row.text("name"), reentry: try row.bool("reentry"),
                    validFrom: try row.optionalTime("valid_from"), validUntil: try row.optionalTime("valid_until"))
                return (try row.integer("seq"), { $0.accessTypes.append(type) })
            }
            changes += try await connection.rows("""
                SELECT id, deleted, seq, code, name, email, company, access_type_id, revoked, walk_in, possible_duplicate_of,
                    ticket_valid_from, ticket_valid_until, attention, order_code, checked_in_before, merged_into
                FROM guests WHERE event_id = \(event) AND seq > \(cursor) ORDER BY seq LIMIT \(fetch)
                """) { row in try Self.guestChange(row) }
            changes += try await connection.rows("""
                SELECT device_id, guest_id, scanned_at, station, operator_name, source, direction, undone_at, seq
                FROM check_ins WHERE event_id = \(event) AND seq > \(cursor) AND status = 'accepted'
                    AND scanned_at BETWEEN \(PlausibleTime.earliest) AND \(PlausibleTime.latest(now: now))
                ORDER BY seq LIMIT \(fetch)
                """) { row -> RosterPaging.Change in
                let checkIn = RosterCheckIn(
                    key: IdempotencyKey(deviceID: try row.text("device_id"), guestID: try row.text("guest_id"), scannedAt: try row.time("scanned_at")),
                    station: try row.text("station"), operatorName: try row.text("operator_name"),
                    source: CheckInSource(rawValue: try row.text("source")) ?? .typed,
                    direction: Direction(rawValue: try row.text("direction")) ?? .entry, undone: try row.optionalInteger("undone_at") != nil)
                return (try row.integer("seq"), { $0.checkIns.append(checkIn) })
            }
            return RosterPaging.page(changes, after: cursor, limit: limit)
        }
    }

    /// A guest row as a roster change: the guest, or its removal (and where it was merged).
    private static func guestChange(_ row: some SQLRow) throws -> RosterPaging.Change {
        let id = try row.text("id"), seq = try row.integer("seq")
        guard try !row.bool("deleted") else {
            let merge = try row.optionalText("merged_into").map { GuestMerge(guestID: id, into: $0) }
            return (seq, {
                $0.deletedGuestIDs.append(id)
                if let merge { $0.merges = ($0.merges ?? []) + [merge] }
            })
        }
        let guest = RosterGuest(
            id: id, code: try row.text("code"), name: try row.text("name"), email: try row.text("email"), company: try row.text("company"),
            accessTypeID: try row.text("access_type_id"), revoked: try row.bool("revoked"), walkIn: try row.bool("walk_in"),
            possibleDuplicateOf: try row.optionalText("possible_duplicate_of"), facts: try TicketFacts(row: row))
        return (seq, { $0.guests.append(guest) })
    }
}
