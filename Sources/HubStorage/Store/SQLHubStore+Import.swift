import CheckInCore
import HubAPI
import RosterCSV

/// Roster imports (``EventRepository/importRoster(event:rows:replace:audit:)``): the file is
/// compared with the event's guests first, and only the rows that change something are written,
/// in batches.
extension SQLHubStore {
    /// Guests written per statement: keeps each statement's parameters small.
    static let importBatch = 5_000

    public func importRoster(event: String, rows roster: [RosterRow], replace: Bool,
                             audit: (@Sendable (ImportSummary) -> OrganizerAction)?) async throws -> ImportSummary {
        let summary = try await database.write(changing: event) { connection in
            try await Self.requireEvent(event, on: connection)
            try await connection.lockEvent(event)
            var known: [String: [String]] = [:]
            for (code, values) in try await connection.rows("""
                SELECT code, name, email, company, access_type_id, revoked, ticket_valid_from, ticket_valid_until, attention, order_code,
                    checked_in_before
                FROM guests WHERE event_id = \(event)
                """, { row in
                    (try row.text("code"), ImportSummary.values(
                        name: try row.text("name"), email: try row.text("email"), company: try row.text("company"),
                        typeID: try row.text("access_type_id"), revoked: try row.bool("revoked"), facts: try TicketFacts(row: row)))
                }) {
                known[code] = values
            }
            var summary = ImportSummary(imported: 0, updated: 0, unchanged: 0)
            var types: [(id: String, name: String)] = [], typeIDs = Set<String>()
            var changed: [(row: RosterRow, typeID: String)] = []
            for row in roster {
                let typeID = AccessType.identifier(forName: row.accessType)
                if typeIDs.insert(typeID).inserted { types.append((typeID, row.accessType)) }
                let values = ImportSummary.values(name: row.name, email: row.email, company: row.company, typeID: typeID, revoked: row.revoked,
                                                  facts: row.facts)
                guard summary.count(values, old: known[row.code.value]) else { continue }
                known[row.code.value] = values
                changed.append((row, typeID))
            }
            var wroteAny = try await Self.addAccessTypes(types, event: event, on: connection)
            for start in stride(from: 0, to: changed.count, by: Self.importBatch) {
                try await Self.upsertGuests(Array(changed[start..<min(start + Self.importBatch, changed.count)]), event: event, on: connection)
                wroteAny = true
            }
            if replace {
                // A ticket refunded since the last export is simply missing from this one.
                let present = SQLValue.texts(roster.map(\.code.value))
                summary.revokedMissing = try await connection.rows("""
                    UPDATE guests SET revoked = true, seq = nextval('change_seq')
                    WHERE event_id = \(event) AND NOT revoked AND NOT walk_in AND NOT deleted AND NOT \(connection.dialect.expression("code", isIn: present))
                    RETURNING code
                    """) { try $0.text("code") }.sorted()
                wroteAny = wroteAny || !summary.revokedMissing.isEmpty
            }
            if wroteAny { try await connection.announce(event) }
            try await Self.record(audit?(summary), on: connection)
            return summary
        }
        await database.wrote(summary.imported + summary.updated, to: .guests)
        return summary
    }

    /// Adds the roster's access types the event does not have yet; whether it added any.
    private static func addAccessTypes(_ types: [(id: String, name: String)], event: String, on connection: any SQLConnection) async throws -> Bool {
        guard !types.isEmpty else { return false }
        let batch = SQLBatch(types, [("id", { .text($0.map(\.id)) }), ("name", { .text($0.map(\.name)) })])
        return try await connection.exists("""
            INSERT INTO access_types (event_id, id, name, reentry, seq)
            SELECT \(event), t.id, t.name, false, nextval('change_seq') FROM \(connection.dialect.table(batch, as: "t"))
            WHERE NOT EXISTS (SELECT 1 FROM access_types a WHERE a.event_id = \(event) AND a.id = t.id)
            ORDER BY t.n
            ON CONFLICT (event_id, id) DO NOTHING
            RETURNING id
            """)
    }

    /// Inserts or replaces these guests by ticket code (a deleted one comes back).
    private static func upsertGuests(_ rows: [(row: RosterRow, typeID: String)], event: String, on connection: any SQLConnection) async throws {
        let batch = SQLBatch(rows, [
            ("code", { .text($0.map(\.row.code.value)) }), ("name", { .text($0.map(\.row.name)) }), ("email", { .text($0.map(\.row.email)) }),
            ("company", { .text($0.map(\.row.company)) }), ("type", { .text($0.map(\.typeID)) }), ("revoked", { .boolean($0.map(\.row.revoked)) }),
            ("valid_from", { .optionalInteger($0.map { $0.row.facts.validFrom?.milliseconds }) }),
            ("valid_until", { .optionalInteger($0.map { $0.row.facts.validUntil?.milliseconds }) }),
            ("attention", { .optionalText($0.map(\.row.facts.attentionNote)) }), ("order_code", { .text($0.map(\.row.facts.orderCode)) }),
            ("before", { .optionalInteger($0.map { $0.row.facts.checkedInBefore?.milliseconds }) }),
        ])
        try await connection.execute("""
            INSERT INTO guests (event_id, id, code, name, email, company, access_type_id, revoked,
                ticket_valid_from, ticket_valid_until, attention, order_code, checked_in_before, seq)
            SELECT \(event), r.code, r.code, r.name, r.email, r.company, r.type, r.revoked, r.valid_from, r.valid_until, r.attention, r.order_code,
                r.before, nextval('change_seq')
            FROM \(connection.dialect.table(batch, as: "r")) WHERE true ORDER BY r.n
            ON CONFLICT (event_id, code) DO UPDATE SET name = excluded.name, email = excluded.email, company = excluded.company,
                access_type_id = excluded.access_type_id, revoked = excluded.revoked, deleted = false, seq = excluded.seq,
                ticket_valid_from = excluded.ticket_valid_from, ticket_valid_until = excluded.ticket_valid_until,
                attention = excluded.attention, order_code = excluded.order_code, checked_in_before = excluded.checked_in_before
            """)
    }
}
