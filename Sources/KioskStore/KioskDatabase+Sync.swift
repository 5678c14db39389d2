import CheckInCore
import Foundation
import GRDB

/// One page (or several merged pages) of roster changes from the hub, in the station's terms.
///
/// Applying a delta is idempotent: guests and access types are upserted by id, check-ins of other
/// stations are keyed by their idempotency key, so a page replayed after a crash changes nothing.
public struct RosterDelta: Sendable {
    public var accessTypes: [AccessType]
    /// New or changed guests (revoked guests come with `revoked` set).
    public var guests: [Guest]
    /// Guests the hub deleted.
    public var deletedGuestIDs: [String]
    /// Admissions recorded at the hub (by any station, this one included).
    public var checkIns: [CheckIn]
    /// Check-ins undone at the hub: idempotency key and when.
    public var undone: [(key: String, at: Timestamp)]
    /// The cursor to ask for next; stored in the same transaction as the changes.
    public var nextCursor: String

    public init(accessTypes: [AccessType] = [], guests: [Guest] = [], deletedGuestIDs: [String] = [], checkIns: [CheckIn] = [],
                undone: [(key: String, at: Timestamp)] = [], nextCursor: String) {
        self.accessTypes = accessTypes
        self.guests = guests
        self.deletedGuestIDs = deletedGuestIDs
        self.checkIns = checkIns
        self.undone = undone
        self.nextCursor = nextCursor
    }
}

/// The event this station syncs with, and how far its roster copy has got.
public struct SyncEventState: Sendable, Equatable {
    public var eventID: String
    public var eventName: String
    /// The hub cursor after the last applied page; `nil` before the first page.
    public var cursor: String?
    /// Whether a full download finished at least once (the event is usable offline).
    public var complete: Bool
}

/// What the hub said about one uploaded outbox entry.
public enum OutboxOutcome: Sendable, Equatable {
    /// Recorded at the hub (or recorded earlier with the same key: the same answer).
    case accepted
    /// Another station admitted the guest within the tolerance window: this one is not a second
    /// admission. Shown to the operator as information.
    case duplicate(of: PriorCheckIn)
    /// Refused for good (reason as the hub gave it); never retried, surfaced to the operator.
    case rejected(reason: String, previous: PriorCheckIn?)
    /// Not settled (server error, timeout): stays pending, counted as one more attempt.
    case retry(reason: String)
}

extension KioskDatabase {
    enum SyncSettingKey: String {
        case eventID = "sync_event_id"
        case eventName = "sync_event_name"
        case cursor = "sync_cursor"
        case complete = "sync_complete"
    }

    // MARK: Event and cursor

    /// The selected event and its cursor, or `nil` when no event is selected.
    public func syncEvent() throws(StoreError) -> SyncEventState? {
        try wrap {
            try writer.read { db in
                func value(_ key: SyncSettingKey) throws -> String? {
                    try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [key.rawValue])
                }
                guard let id = try value(.eventID) else { return nil }
                return SyncEventState(eventID: id, eventName: try value(.eventName) ?? id, cursor: try value(.cursor),
                                      complete: try value(.complete) == "1")
            }
        }
    }

    /// Selects the event to sync. Choosing another event than the current one clears the local
    /// roster and the cursor (pending outbox entries stay, they belong to the old event's upload).
    /// - Returns: whether the local roster was cleared.
    @discardableResult
    public func selectSyncEvent(id: String, name: String, toleranceWindowMilliseconds: Int64?) async throws(StoreError) -> Bool {
        try requireUsable()
        return try await wrap {
            try await writer.write { db in
                let current = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [SyncSettingKey.eventID.rawValue])
                let changed = current != id
                if changed {
                    try Self.clearRoster(db)
                }
                try Self.put(db, SyncSettingKey.eventID.rawValue, id)
                try Self.put(db, SyncSettingKey.eventName.rawValue, name)
                if let window = toleranceWindowMilliseconds {
                    try Self.put(db, SettingKey.toleranceWindowMilliseconds.rawValue, String(window))
                }
                return changed
            }
        }
    }

    /// Forgets the event, the roster copy and the cursor (sign-out without `--keep`). Pending and
    /// rejected outbox entries and this station's own check-ins are kept.
    public func clearSyncedRoster(forgetEvent: Bool) async throws(StoreError) {
        try requireUsable()
        try await wrap {
            try await writer.write { db in
                try Self.clearRoster(db)
                if forgetEvent {
                    try db.execute(sql: "DELETE FROM settings WHERE key IN (?, ?)",
                                   arguments: [SyncSettingKey.eventID.rawValue, SyncSettingKey.eventName.rawValue])
                }
            }
        }
    }

    static func clearRoster(_ db: Database) throws {
        // Guests referenced by a check-in still waiting for the hub stay: the operator may look
        // them up until the upload settles.
        try db.execute(sql: """
            DELETE FROM guests WHERE id NOT IN (SELECT guest_id FROM check_ins WHERE origin = 'local')
            """)
        try db.execute(sql: "DELETE FROM check_ins WHERE origin != 'local'")
        try db.execute(sql: "DELETE FROM access_types WHERE id NOT IN (SELECT access_type_id FROM guests)")
        try db.execute(sql: "DELETE FROM settings WHERE key IN (?, ?, ?)",
                       arguments: [SyncSettingKey.cursor.rawValue, SyncSettingKey.complete.rawValue, SettingKey.lastPull.rawValue])
    }

    static func put(_ db: Database, _ key: String, _ value: String) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", arguments: [key, value])
    }

    // MARK: Roster pages

    /// Applies roster pages in one transaction and stores the last page's cursor with them, so a
    /// download killed at any point resumes from the last committed cursor and reaches the same
    /// roster as an uninterrupted one.
    /// - Parameter complete: marks the event as fully downloaded (the last page of a pull); the
    ///   search index of staged guests is then built in the background.
    public func applyRoster(_ deltas: [RosterDelta], eventID: String, complete: Bool, at: Timestamp = .now()) async throws(StoreError) {
        try requireUsable()
        guard let last = deltas.last else { return }
        try await wrap {
            try await bulkWrite { db in
                // A page for an event the station no longer uses (switched meanwhile) is dropped.
                let current = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [SyncSettingKey.eventID.rawValue])
                guard current == eventID else { return }
                let now = at.milliseconds
                let typeUpsert = try db.makeStatement(sql: """
                    INSERT INTO access_types (id, name, reentry, valid_from, valid_until, updated_at) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET name = excluded.name, reentry = excluded.reentry,
                        valid_from = excluded.valid_from, valid_until = excluded.valid_until, updated_at = excluded.updated_at
                    """)
                for delta in deltas {
                    for type in delta.accessTypes {
                        try typeUpsert.execute(arguments: [type.id, type.name, type.reentry, type.validFrom?.milliseconds, type.validUntil?.milliseconds, now])
                    }
                }
                // Rows after this one are new: indexed for search by rowid. A guest written over an
                // existing row (a replayed page, a guest changed at the hub) is re-indexed by id.
                let lastRowID = try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(rowid), 0) FROM guests") ?? 0
                try Self.withDeferredSearchIndex(db) { changedIDs in
                    let upsert = try db.makeStatement(sql: Self.guestUpsertSQL + " RETURNING rowid")
                    // A code that moved to another guest at the hub violates UNIQUE(code): freed on conflict.
                    let freeCode = try db.makeStatement(sql: "DELETE FROM guests WHERE code = ? AND id != ?")
                    let delete = try db.makeStatement(sql: "DELETE FROM guests WHERE id = ?")
                    for delta in deltas {
                        for guest in delta.guests {
                            let arguments: StatementArguments = [guest.id, guest.code.value, guest.name, guest.email, guest.company,
                                                                 guest.accessTypeID, guest.revoked, guest.walkIn, now]
                            var rowID: Int64?
                            do {
                                rowID = try Int64.fetchOne(upsert, arguments: arguments)
                            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                                // Rare: the code belongs to another guest here. Only this statement
                                // failed; free the code and write the guest again.
                                try freeCode.execute(arguments: [guest.code.value, guest.id])
                                rowID = try Int64.fetchOne(upsert, arguments: arguments)
                            }
                            if (rowID ?? 0) <= lastRowID { changedIDs.append(guest.id) }
                        }
                        for id in delta.deletedGuestIDs { try delete.execute(arguments: [id]) }
                    }
                }
                let insertCheckIn = try db.makeStatement(sql: """
                    INSERT INTO check_ins (idempotency_key, guest_id, device_id, station, operator, source, direction, scanned_at, origin, hub_status)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'hub', 'accepted')
                    ON CONFLICT(idempotency_key) DO UPDATE SET hub_status = 'accepted' WHERE hub_status IS NULL
                    """)
                let undo = try db.makeStatement(sql: "UPDATE check_ins SET undone_at = ? WHERE idempotency_key = ? AND undone_at IS NULL")
                for delta in deltas {
                    for checkIn in delta.checkIns {
                        try insertCheckIn.execute(arguments: [checkIn.key.description, checkIn.guestID, checkIn.deviceID, checkIn.station,
                                                              checkIn.operatorName, checkIn.source.rawValue, checkIn.direction.rawValue,
                                                              checkIn.scannedAt.milliseconds])
                    }
                    for item in delta.undone { try undo.execute(arguments: [item.at.milliseconds, item.key]) }
                }
                try Self.put(db, SyncSettingKey.cursor.rawValue, last.nextCursor)
                if complete {
                    try Self.put(db, SyncSettingKey.complete.rawValue, "1")
                    try Self.put(db, SettingKey.lastPull.rawValue, at.iso8601)
                    try Self.put(db, SettingKey.rosterImportedAt.rawValue, String(now))
                }
            }
        }
        // Guests staged for search by this download are indexed now that it is done (before,
        // the catch-up would only slow the download down).
        if complete { indexSearchInBackground() }
    }

    // MARK: Outbox

    /// Number of changes still waiting for the hub.
    public func pendingCount() throws(StoreError) -> Int {
        try wrap { try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE state = 'pending'") ?? 0 } }
    }

    /// Entries the hub refused for good, oldest first, with their reasons.
    public func rejectedOutbox() throws(StoreError) -> [OutboxEntry] {
        try wrap {
            try writer.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT id, kind, ref, payload, sort_at, attempts, last_error FROM outbox WHERE state = 'rejected' ORDER BY sort_at, id
                    """).map {
                    OutboxEntry(id: $0["id"], kind: $0["kind"], ref: $0["ref"], payload: $0["payload"],
                                sortAt: Timestamp(milliseconds: $0["sort_at"]), attempts: $0["attempts"], lastError: $0["last_error"])
                }
            }
        }
    }

    /// Applies the hub's answers to uploaded entries in one transaction. Settled entries leave the
    /// pending queue (`synced` or `rejected`, kept for the record); a `duplicate` also updates
    /// the local check-in with who/where/when of the admission it duplicates.
    public func applyOutboxOutcomes(_ outcomes: [(id: Int64, outcome: OutboxOutcome)], at: Timestamp = .now()) async throws(StoreError) {
        try requireUsable()
        guard !outcomes.isEmpty else { return }
        let deviceID = self.deviceID
        try await wrap {
            try await writer.write { db in
                var settled = false
                for (id, outcome) in outcomes {
                    guard let row = try Row.fetchOne(db, sql: "SELECT kind, ref FROM outbox WHERE id = ? AND state = 'pending'", arguments: [id]) else { continue }
                    let kind: String = row["kind"], ref: String = row["ref"]
                    switch outcome {
                    case .accepted:
                        settled = true
                        try db.execute(sql: "UPDATE outbox SET state = 'synced', attempts = attempts + 1, last_error = NULL WHERE id = ?", arguments: [id])
                        if kind == "checkin" {
                            try db.execute(sql: "UPDATE check_ins SET hub_status = 'accepted', hub_detail = NULL WHERE idempotency_key = ?", arguments: [ref])
                        }
                    case .duplicate(let prior):
                        settled = true
                        let detail = Self.describe(prior)
                        try db.execute(sql: "UPDATE outbox SET state = 'synced', attempts = attempts + 1, last_error = ? WHERE id = ?",
                                       arguments: ["duplicate of " + detail.serialized, id])
                        if kind == "checkin" {
                            try db.execute(sql: "UPDATE check_ins SET hub_status = 'duplicate', hub_detail = ? WHERE idempotency_key = ?",
                                           arguments: [detail.serialized, ref])
                        }
                    case .rejected(let reason, let previous):
                        settled = true
                        let text = Sanitized.text(reason)
                        try db.execute(sql: "UPDATE outbox SET state = 'rejected', attempts = attempts + 1, last_error = ? WHERE id = ?",
                                       arguments: [text, id])
                        if kind == "checkin" {
                            var detail: [String: JSONValue] = ["reason": .string(text)]
                            if let previous { detail["previous"] = Self.describe(previous) }
                            try db.execute(sql: "UPDATE check_ins SET hub_status = 'rejected', hub_detail = ? WHERE idempotency_key = ?",
                                           arguments: [JSONValue.object(detail).serialized, ref])
                        }
                        try db.execute(sql: """
                            INSERT INTO audit_log (at, device_id, station, operator, source, action, detail)
                            VALUES (?, ?, '', 'sync', 'sync', 'hub_rejected', ?)
                            """, arguments: [at.milliseconds, deviceID, "\(kind) \(ref): \(text)"])
                    case .retry(let reason):
                        try db.execute(sql: "UPDATE outbox SET attempts = attempts + 1, last_error = ? WHERE id = ?",
                                       arguments: [Sanitized.text(reason), id])
                    }
                }
                if settled { try Self.put(db, SettingKey.lastPush.rawValue, at.iso8601) }
            }
        }
    }

    static func describe(_ prior: PriorCheckIn) -> JSONValue {
        ["by": .string(Sanitized.text(prior.by)), "station": .string(Sanitized.text(prior.station)),
         "device_id": .string(Sanitized.text(prior.deviceID)), "at": .string(prior.at.iso8601)]
    }

    /// Drops every pending entry (`kiosk signout --discard`), logged in the audit log with the count.
    /// - Returns: how many were discarded.
    public func discardPending(operatorName: String) async throws(StoreError) -> Int {
        try requireUsable()
        let deviceID = self.deviceID
        return try await wrap {
            try await writer.write { db in
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE state = 'pending'") ?? 0
                try db.execute(sql: "UPDATE outbox SET state = 'discarded' WHERE state = 'pending'")
                try db.execute(sql: """
                    INSERT INTO audit_log (at, device_id, station, operator, source, action, detail)
                    VALUES (?, ?, '', ?, 'typed', 'discard_pending', ?)
                    """, arguments: [Timestamp.now().milliseconds, deviceID, operatorName, "\(count) unsynced changes discarded at sign-out"])
                return count
            }
        }
    }

    /// The hub's verdict on a local check-in (`accepted`, `duplicate`, `rejected`) and its detail
    /// JSON, or `nil` while it is still pending.
    public func hubStatus(idempotencyKey: String) throws(StoreError) -> (status: String, detail: String?)? {
        try wrap {
            try writer.read { db in
                guard let row = try Row.fetchOne(db, sql: "SELECT hub_status, hub_detail FROM check_ins WHERE idempotency_key = ?",
                                                 arguments: [idempotencyKey]),
                      let status = row["hub_status"] as String? else { return nil }
                return (status, row["hub_detail"] as String?)
            }
        }
    }
}
