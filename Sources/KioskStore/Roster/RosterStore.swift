import CheckInCore
import Foundation
import GRDB
import RosterCSV

/// The outcome of a roster import.
public struct RosterImportSummary: Sendable, Equatable {
    /// New guests.
    public var imported: Int
    /// Existing guests (same code) whose name, e-mail, company or access type changed.
    public var updated: Int
    /// Existing guests present again without change.
    public var unchanged: Int
    public var rejected: [RosterRejection]
    /// With `replace`: guests missing from the file, revoked by this import (code and name).
    public var revokedMissing: [(code: String, name: String)] = []

    public static func == (a: RosterImportSummary, b: RosterImportSummary) -> Bool {
        a.imported == b.imported && a.updated == b.updated && a.unchanged == b.unchanged && a.rejected == b.rejected
            && a.revokedMissing.map(\.code) == b.revokedMissing.map(\.code)
    }
}

extension KioskDatabase {
    /// The roster: guests and access types, imported, downloaded, saved and looked up.
    public var roster: RosterStore { RosterStore(database: self) }
}

/// The roster's reads and writes: guests (sealed, see ``GuestRecord``) and access types.
public struct RosterStore: StoreRepository {
    let database: KioskDatabase

    /// Imports parsed roster rows in one transaction. Guests are matched by ticket code and
    /// updated in place; recorded check-ins are never touched. A large import is indexed for
    /// search in the background after the commit (``SearchIndex/finishSearchIndex(progress:)`` waits for it).
    /// - Parameter replace: the file is the whole roster: guests missing from it (refunded since
    ///   the last export; walk-ins aside) are revoked and listed. Their check-ins stay.
    public func importRoster(_ file: RosterFile, replace: Bool = false) async throws(StoreError) -> RosterImportSummary {
        try requireUsable()
        let rows = file.rows
        let rejected = file.rejected
        let cipher = self.cipher
        let summary = try await wrap {
            try await writer.write { db in
                let now = Timestamp.now().milliseconds
                var typeIDs: [String: String] = [:]
                for name in Set(rows.map(\.accessType)) {
                    let id = AccessType.identifier(forName: name)
                    typeIDs[name] = id
                    try AccessTypeRecord(AccessType(id: id, name: name), updatedAt: Timestamp(milliseconds: now)).insert(db, onConflict: .ignore)
                }
                var summary = RosterImportSummary(imported: 0, updated: 0, unchanged: 0, rejected: rejected)
                try Self.withDeferredSearchIndex(db, rows: rows.count) { batch in
                    var existing: [String: Guest] = [:]
                    let cursor = try OpenedGuestRecord.fetchCursor(db, sql: "SELECT \(OpenedGuestRecord.columns) FROM guests g")
                    while let guest = try cursor.next() { existing[guest.code] = guest.guest }
                    // New guests have new ids: a plain insert (an upsert returning the rowid was 12 % slower).
                    let insert = try db.makeStatement(sql: Self.sealedGuestInsertSQL)
                    let update = try db.makeStatement(sql: """
                        UPDATE guests SET sealed = ?, order_digest = ?, access_type_id = ?, revoked = ?, updated_at = ? WHERE id = ? RETURNING rowid
                        """)
                    var identifiers = IdentifierGenerator()
                    var sealing = SealingSlices(cipher: cipher, guests: rows) {
                        GuestFields(code: $0.code.value, name: $0.name, email: $0.email, company: $0.company, facts: $0.facts)
                    }
                    defer { sealing.finish() }
                    for (index, row) in rows.enumerated() {
                        let fields = sealing.sealed(index)
                        let type = typeIDs[row.accessType] ?? AccessType.identifier(forName: row.accessType)
                        if let old = existing[row.code.value] {
                            if old.name == row.name && old.email == row.email && old.company == row.company && old.accessTypeID == type
                                && old.revoked == row.revoked && old.facts == row.facts {
                                summary.unchanged += 1
                            } else {
                                let rowID = try Int64.fetchOne(update, arguments: [fields.record, fields.orderDigest, type, row.revoked, now, old.id])
                                batch.changedIDs.append(old.id)
                                if let rowID { try batch.index(rowID, fields.tokens) }
                                summary.updated += 1
                            }
                        } else {
                            let guest = Guest(id: identifiers.next(), code: row.code, name: row.name, email: row.email, company: row.company,
                                              accessTypeID: type, revoked: row.revoked, facts: row.facts)
                            let record = GuestRecord(guest, sealed: fields, updatedAt: Timestamp(milliseconds: now), fromHub: false)
                            try insert.execute(arguments: record.rowArguments)
                            try batch.index(db.lastInsertedRowID, fields.tokens)
                            summary.imported += 1
                        }
                    }
                    if replace {
                        for row in rows { existing[row.code.value] = nil }
                        let revoke = try db.makeStatement(sql: "UPDATE guests SET revoked = 1, updated_at = ? WHERE id = ?")
                        for guest in existing.values.filter({ !$0.revoked && !$0.walkIn }).sorted(by: { $0.code.value < $1.code.value }) {
                            try revoke.execute(arguments: [now, guest.id])
                            summary.revokedMissing.append((guest.code.value, guest.name))
                        }
                    }
                }
                try db.execute(sql: "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
                               arguments: [KioskDatabase.SettingKey.rosterImportedAt.rawValue, String(now)])
                return summary
            }
        }
        database.searchIndex.indexInBackground()
        return summary
    }

    /// Upserts many guests by id in one transaction (bulk loads), indexing them for search in
    /// the same transaction, or in the background after it when there are many.
    public func saveGuests(_ guests: [Guest]) async throws(StoreError) {
        try requireUsable()
        let cipher = self.cipher
        try await wrap {
            try await database.bulkWrite { db in
                try Self.withDeferredSearchIndex(db, rows: guests.count) { batch in
                    let upsert = try db.makeStatement(sql: Self.sealedGuestUpsertSQL)
                    let now = Timestamp.now()
                    var sealing = SealingSlices(cipher: cipher, guests: guests, fields: GuestFields.init)
                    defer { sealing.finish() }
                    for (index, guest) in guests.enumerated() {
                        let fields = sealing.sealed(index)
                        let record = GuestRecord(guest, sealed: fields, updatedAt: now, fromHub: false)
                        let rowID = try Int64.fetchOne(upsert, arguments: record.rowArguments)
                        batch.changedIDs.append(guest.id)
                        if let rowID { try batch.index(rowID, fields.tokens) }
                    }
                }
            }
        }
        database.searchIndex.indexInBackground()
    }

    /// Runs bulk guest writes with the search triggers off; `body` writes `rows` guests or
    /// fewer, giving ``DeferredSearchIndex/index(_:_:)`` the tokens of each row it writes and
    /// appending the id of each guest it writes over (see 0002_guest_search.sql).
    ///
    /// Up to ``inlineSearchIndexLimit`` rows are indexed in the same transaction, from a
    /// temporary table at the end (FTS5 flushes its pending index at every statement). More go
    /// straight to `search_pending` with their tokens, for ``SearchIndex/indexPendingSearch(batchSize:)`` to
    /// index after the commit (0004_search_catch_up.sql); the caller then calls
    /// ``database.searchIndex.indexInBackground()``. (Staging through the temporary table too wrote a 100k
    /// roster's tokens twice more: a fifth of an import's time after parsing.)
    static func withDeferredSearchIndex(_ db: Database, rows: Int, _ body: (inout DeferredSearchIndex) throws -> Void) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO settings (key, value) VALUES ('search_index_deferred', '1')")
        let lastRowID = try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(rowid), 0) FROM guests") ?? 0
        let staged = rows > inlineSearchIndexLimit
        if !staged {
            try db.execute(sql: """
                CREATE TEMP TABLE IF NOT EXISTS bulk_tokens (guest_rowid INTEGER PRIMARY KEY, search_text TEXT NOT NULL);
                DELETE FROM temp.bulk_tokens;
                """)
        }
        var batch = DeferredSearchIndex(db: db, table: staged ? "search_pending (guest_rowid, search_text)" : "temp.bulk_tokens")
        try body(&batch)
        try batch.flush()
        let changedJSON = JSONValue.array(batch.changedIDs.map(JSONValue.string)).serialized
        let tokens = "kiosk_search_tokens(sealed)"
        // Rows written over were in one of the two indexes; staged ones hold their new tokens now.
        if !batch.changedIDs.isEmpty {
            let overwritten = "SELECT rowid FROM guests WHERE id IN (SELECT value FROM json_each(?))"
            try db.execute(sql: "DELETE FROM guest_search WHERE rowid IN (\(overwritten))", arguments: [changedJSON])
            if !staged { try db.execute(sql: "DELETE FROM search_pending WHERE guest_rowid IN (\(overwritten))", arguments: [changedJSON]) }
        }
        if staged {
            // New rows the body wrote without tokens get them through SQL.
            try db.execute(sql: """
                INSERT INTO search_pending (guest_rowid, search_text) SELECT rowid, \(tokens) FROM guests
                WHERE rowid > ? AND rowid NOT IN (SELECT guest_rowid FROM search_pending)
                """, arguments: [lastRowID])
        } else {
            // Rows written with their tokens computed beforehand get those (if still there: a guest
            // written and then removed in the same batch has none); any other, through SQL.
            let changed = "SELECT rowid FROM guests WHERE rowid > ? OR id IN (SELECT value FROM json_each(?))"
            try db.execute(sql: """
                INSERT INTO guest_search (rowid, search_text) SELECT rowid, \(tokens) FROM guests
                WHERE rowid IN (\(changed)) AND rowid NOT IN (SELECT guest_rowid FROM temp.bulk_tokens)
                """, arguments: [lastRowID, changedJSON])
            try db.execute(sql: """
                INSERT INTO guest_search (rowid, search_text) SELECT b.guest_rowid, b.search_text FROM temp.bulk_tokens b
                WHERE EXISTS (SELECT 1 FROM guests WHERE rowid = b.guest_rowid)
                """)
            try db.execute(sql: "DELETE FROM temp.bulk_tokens")
        }
        try db.execute(sql: "DELETE FROM settings WHERE key = 'search_index_deferred'")
    }

    /// What a bulk write tells ``withDeferredSearchIndex(_:rows:_:)``: the ids of guests it
    /// wrote over, and the blind index of the rows it wrote (by rowid).
    ///
    /// The tokens go to a table, not to memory (a 100k roster's are 30 MB), a few hundred rows
    /// per statement: one statement per guest beside its own insert was a third of the writer's
    /// time in a 100k import.
    struct DeferredSearchIndex {
        var changedIDs: [String] = []
        private let db: Database
        private let table: String
        private var waiting: [DatabaseValue] = []
        private var fullStatement: Statement?
        static let rowsPerStatement = 256

        init(db: Database, table: String) {
            self.db = db
            self.table = table
        }

        mutating func index(_ rowID: Int64, _ tokens: String) throws {
            waiting.append(rowID.databaseValue)
            waiting.append(tokens.databaseValue)
            if waiting.count == 2 * Self.rowsPerStatement { try flush() }
        }

        /// Writes the rows still waiting. A guest written and then removed before this has no
        /// row (its rowid may since be another guest's, written after it: the later row wins).
        mutating func flush() throws {
            guard !waiting.isEmpty else { return }
            let rows = waiting.count / 2
            let statement: Statement
            if rows == Self.rowsPerStatement, let fullStatement {
                statement = fullStatement
            } else {
                statement = try db.makeStatement(sql: """
                    INSERT OR REPLACE INTO \(table) SELECT column1, column2
                    FROM (VALUES \(Array(repeating: "(?, ?)", count: rows).joined(separator: ", ")))
                    WHERE EXISTS (SELECT 1 FROM guests WHERE rowid = column1)
                    """)
                if rows == Self.rowsPerStatement { fullStatement = statement }
            }
            try statement.execute(arguments: StatementArguments(waiting))
            waiting.removeAll(keepingCapacity: true)
        }
    }

    /// Adds a guest, its record already sealed: ``GuestRecord/rowArguments``.
    static let sealedGuestInsertSQL = "INSERT INTO guests (\(GuestRecord.rowColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

    /// Adds or replaces a guest by id, its record already sealed: ``GuestRecord/rowArguments``;
    /// returns its rowid. (GRDB's `upsert` would also take a conflict on the code for this
    /// guest's row.)
    static let sealedGuestUpsertSQL = """
        INSERT INTO guests (\(GuestRecord.rowColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET code = excluded.code, sealed = excluded.sealed, access_type_id = excluded.access_type_id,
            revoked = excluded.revoked, walk_in = excluded.walk_in, updated_at = excluded.updated_at, from_hub = excluded.from_hub,
            order_digest = excluded.order_digest, hub_id = excluded.hub_id
        RETURNING rowid
        """

    /// Bulk writes of more rows than this leave their search indexing to the background catch-up.
    static let inlineSearchIndexLimit = 2_000

    /// Adds or replaces an access type (single entry or re-entry, optional time window).
    public func saveAccessType(_ type: AccessType) async throws(StoreError) {
        try requireUsable()
        try await wrap {
            try await writer.write { db in try AccessTypeRecord(type, updatedAt: .now()).upsert(db) }
        }
    }

    /// Adds or replaces a guest, matched by id (the hub's sync and tests use this).
    public func saveGuest(_ guest: Guest) async throws(StoreError) {
        try requireUsable()
        try await wrap {
            try await writer.write { [cipher] db in
                // Sealed here; indexed by the schema's trigger.
                let record = GuestRecord(guest, sealingWith: cipher, updatedAt: .now(), fromHub: false)
                _ = try Int64.fetchOne(db, sql: Self.sealedGuestUpsertSQL, arguments: record.rowArguments)
            }
        }
    }

    /// The guest's movements not undone, this station's and those of other doors it learnt of,
    /// in scan order: what a check-in list's rules count.
    public func movements(ofGuest id: String) throws(StoreError) -> [CheckIn] {
        try requireUsable()
        return try wrap { try writer.read { db in try CheckInRecord.fetchAdmissions(db, guestID: id) } }
    }

    /// The guest holding `code` (normalized as the event's rules say), with their state.
    public func guest(code raw: String) throws(StoreError) -> GuestDetails? {
        try requireUsable()
        return try wrap {
            try writer.read { db in
                let policy = try KioskDatabase.policy(db)
                guard let code = TicketCode(normalizing: raw, caseInsensitive: policy.caseInsensitiveCodes),
                      let guest = try OpenedGuestRecord.fetchGuest(db, code: code) else { return nil }
                return try GuestDetails.fetch(db, guest: guest)
            }
        }
    }

    /// The guest with this id, with their state.
    public func guest(id: String) throws(StoreError) -> GuestDetails? {
        try requireUsable()
        return try wrap {
            try writer.read { db in try OpenedGuestRecord.fetchGuest(db, id: id).map { try GuestDetails.fetch(db, guest: $0) } }
        }
    }

    /// All access types, by name.
    public func accessTypes() throws(StoreError) -> [AccessType] {
        try requireUsable()
        return try wrap { try writer.read { db in try AccessTypeRecord.order(AccessTypeRecord.CodingKeys.name).fetchAll(db).map(\.accessType) } }
    }
}

extension RosterStore {
    /// Ticket codes of guests not checked in yet, in roster order (benchmarks present them).
    public func codesNotCheckedIn(limit: Int) throws(StoreError) -> [String] {
        try wrap {
            try writer.read { db in
                try String.fetchAll(db, sql: """
                    SELECT kiosk_guest_field(sealed, 'code') FROM guests WHERE NOT revoked AND id NOT IN (SELECT guest_id FROM check_ins WHERE undone_at IS NULL)
                    ORDER BY rowid LIMIT ?
                    """, arguments: [limit])
            }
        }
    }
}
