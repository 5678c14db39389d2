import CheckInCore
import Foundation
import GRDB

/// One page (or several merged pages) of roster changes from the hub, with guest ids and check-in
/// keys as the hub has them: ``KioskDatabase/applyRoster(_:eventID:complete:at:)`` turns them into
/// the station's (``HubGuestIDs``: a hub may know guests by their ticket codes).
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
    /// Walk-ins an organizer merged into a registration (``KioskDatabase/mergeGuest(_:_:at:)``).
    public var merges: [GuestMerge]
    /// The cursor to ask for next; stored in the same transaction as the changes.
    public var nextCursor: String

    public init(accessTypes: [AccessType] = [], guests: [Guest] = [], deletedGuestIDs: [String] = [], checkIns: [CheckIn] = [],
                undone: [(key: String, at: Timestamp)] = [], merges: [GuestMerge] = [], nextCursor: String) {
        self.merges = merges
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

extension KioskDatabase {
    enum SyncSettingKey: String {
        case eventID = "sync_event_id"
        case eventName = "sync_event_name"
        case cursor = "sync_cursor"
        case complete = "sync_complete"
        /// When the event ends (milliseconds), as the hub said: its data is purged some days later.
        case eventEndsAt = "sync_event_ends_at"
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
    /// - Parameter stationUndoMilliseconds: the hub event's station undo time (`nil`: none known,
    ///   undo is not limited here).
    /// - Returns: whether the local roster was cleared.
    @discardableResult
    public func selectSyncEvent(id: String, name: String, toleranceWindowMilliseconds: Int64?, stationUndoMilliseconds: Int64? = nil,
                                endsAt: Timestamp? = nil) async throws(StoreError) -> Bool {
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
                if let endsAt {
                    try Self.put(db, SyncSettingKey.eventEndsAt.rawValue, String(endsAt.milliseconds))
                } else {
                    try db.execute(sql: "DELETE FROM settings WHERE key = ?", arguments: [SyncSettingKey.eventEndsAt.rawValue])
                }
                if let hub = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [SettingKey.hubURL.rawValue]) {
                    try db.execute(sql: "INSERT OR REPLACE INTO outbox_events (hub_url, event_id, name) VALUES (?, ?, ?)",
                                   arguments: [hub, id, name])
                    // Changes recorded on a local roster, before the station had a hub, belong to
                    // the first event chosen: the roster that was imported is this event's.
                    try db.execute(sql: "UPDATE outbox SET hub_url = ?, event_id = ? WHERE state = 'pending' AND event_id IS NULL",
                                   arguments: [hub, id])
                }
                if let window = toleranceWindowMilliseconds {
                    try Self.put(db, SettingKey.toleranceWindowMilliseconds.rawValue, String(window))
                }
                if let undo = stationUndoMilliseconds {
                    try Self.put(db, SettingKey.stationUndoMilliseconds.rawValue, String(undo))
                } else {
                    try db.execute(sql: "DELETE FROM settings WHERE key = ?", arguments: [SettingKey.stationUndoMilliseconds.rawValue])
                }
                return changed
            }
        }
    }

    /// Forgets the event, the roster copy and the cursor (sign-out without `--keep`). Pending and
    /// rejected outbox entries and this station's own check-ins are kept.
    ///
    /// Guest data the hub has is purged, not only unlinked: deleted pages are overwritten
    /// (`secure_delete`) and the write-ahead log is truncated afterwards, so a box lost after
    /// sign-out does not hold the names in free pages or in the log.
    public func clearSyncedRoster(forgetEvent: Bool) async throws(StoreError) {
        try requireUsable()
        try await wrap {
            try await writer.writeWithoutTransaction { db in
                try SecureDeletion.run(db) {
                    try db.inTransaction {
                        try Self.clearRoster(db)
                        if forgetEvent {
                            try db.execute(sql: "DELETE FROM settings WHERE key IN (?, ?, ?, ?)",
                                           arguments: [SyncSettingKey.eventID.rawValue, SyncSettingKey.eventName.rawValue,
                                                       SyncSettingKey.eventEndsAt.rawValue, SettingKey.stationUndoMilliseconds.rawValue])
                        }
                        return .commit
                    }
                }
                // Readers may still hold the log; what cannot be truncated now is at the next start.
                _ = try? db.checkpoint(.truncate)
            }
        }
    }

    static func clearRoster(_ db: Database) throws {
        // This station's check-ins the hub has (or refused for good, with nothing left to do) go
        // to the archive: the next event's counts and door start clean. The archive keeps what
        // the door did (guest id, time, station, operator, the hub's answer), not who the guest
        // is: the hub has the guest, and a lost box should not. Those still waiting for the hub,
        // or listed as refused, stay with their guests.
        let unsettled = "SELECT guest_id FROM outbox WHERE state IN ('pending', 'rejected') AND guest_id IS NOT NULL"
        try db.execute(sql: """
            INSERT INTO check_ins_archive (event_id, idempotency_key, guest_id, guest_code, guest_name, device_id, station, operator,
                                           source, direction, scanned_at, undone_at, hub_status, hub_detail, archived_at)
            SELECT (SELECT value FROM settings WHERE key = ?), c.idempotency_key, c.guest_id, NULL, NULL, c.device_id, c.station,
                   c.operator, c.source, c.direction, c.scanned_at, c.undone_at, c.hub_status, c.hub_detail, ?
            FROM check_ins c
            WHERE c.origin = 'local' AND c.guest_id NOT IN (\(unsettled))
            """, arguments: [SyncSettingKey.eventID.rawValue, Timestamp.now().milliseconds])
        // Uploads the hub has answered carry guest data (a walk-in's name and e-mail): gone too.
        try db.execute(sql: "DELETE FROM outbox WHERE state = 'synced'")
        try db.execute(sql: "DELETE FROM check_ins WHERE origin = 'local' AND guest_id NOT IN (\(unsettled))")
        // Guests referenced by a check-in still waiting for the hub stay: the operator may look
        // them up until the upload settles.
        try db.execute(sql: """
            DELETE FROM guests WHERE id NOT IN (SELECT guest_id FROM check_ins WHERE origin = 'local')
              AND id NOT IN (\(unsettled))
            """)
        try db.execute(sql: "DELETE FROM check_ins WHERE origin != 'local'")
        try db.execute(sql: "DELETE FROM access_types WHERE id NOT IN (SELECT access_type_id FROM guests)")
        try db.execute(sql: "DELETE FROM settings WHERE key IN (?, ?, ?)",
                       arguments: [SyncSettingKey.cursor.rawValue, SyncSettingKey.complete.rawValue, SettingKey.lastPull.rawValue])
    }

    static func put(_ db: Database, _ key: String, _ value: String) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", arguments: [key, value])
    }

    // MARK: Guests the hub knows under other ids or no longer has

    /// The hub sends `code` for its guest `stationID` (the station's id of it) while another guest
    /// holds it here. A guest that did not come from the hub (imported locally before the station
    /// joined, so with a random id of the station's own) is the same person: it takes the hub
    /// guest's id, with every check-in, queued change and badge job, so nothing recorded is lost
    /// and an admission here is never repeated. A guest from the hub gave up its code at the hub:
    /// it goes, unless this station's check-ins or queued changes reference it (see ``removeGuest(_:id:)``).
    static func yieldCode(_ db: Database, code: String, to stationID: String, at: Timestamp) throws {
        guard let holder = try GuestRecord.fetchOne(db, sql: "SELECT * FROM guests WHERE code = kiosk_code_digest(?) AND id != ?", arguments: [code, stationID])
        else { return }
        let holderID = holder.id
        let hubRowExists = try GuestRecord.exists(db, key: stationID)
        if !holder.fromHub, !hubRowExists {
            try rekeyGuest(db, from: holderID, to: stationID, at: at)
        } else {
            try removeGuest(db, id: holderID)
        }
    }

    /// A stored code no scan can produce (normalized codes never contain whitespace).
    static func retiredCode(_ id: String) -> String { "retired " + id }

    /// Moves a guest and everything that references it to the station's id of the hub's guest.
    /// Keys of check-ins the hub has not accepted yet change with it (it never saw the old ones);
    /// queued changes are rewritten so they upload under the hub's id.
    static func rekeyGuest(_ db: Database, from old: String, to new: String, at: Timestamp) throws {
        try db.execute(sql: "UPDATE guests SET id = ?, from_hub = 1 WHERE id = ?", arguments: [new, old])
        try db.execute(sql: """
            UPDATE check_ins SET guest_id = ?, idempotency_key = device_id || '/' || ? || '/' || scanned_at WHERE guest_id = ?
            """, arguments: [new, new, old])
        let entries = try Row.fetchAll(db, sql: "SELECT id, kind, kiosk_open(payload) AS payload FROM outbox WHERE guest_id = ? AND state = 'pending'", arguments: [old])
        for entry in entries {
            guard let change = try? OutboxChange(kind: entry["kind"], payload: entry["payload"]) else { continue }
            let rekeyed = change.rekeyed(from: old, to: new)
            try db.execute(sql: "UPDATE outbox SET guest_id = ?, ref = ?, payload = kiosk_seal(?), hold = NULL WHERE id = ?",
                           arguments: [new, rekeyed.ref, try rekeyed.payload(), entry["id"] as Int64])
        }
        if try db.tableExists("print_jobs") {
            try db.execute(sql: "UPDATE print_jobs SET guest_id = ? WHERE guest_id = ?", arguments: [new, old])
        }
        let deviceID = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = 'device_id'") ?? ""
        try AuditEntry.sync(.rekey, at: at, deviceID: deviceID, guestID: new, detail: "local guest \(old) is the hub's guest \(new)").insert(db)
    }

    /// The hub removed a guest. One that this station's check-ins or queued changes reference
    /// stays (under a retired code, so it no longer scans); the others go.
    static func removeGuest(_ db: Database, id: String) throws {
        let referenced = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM check_ins WHERE guest_id = ?) OR EXISTS (SELECT 1 FROM outbox WHERE guest_id = ? AND state = 'pending')
            """, arguments: [id, id]) ?? false
        if referenced {
            // A hub that knew the guest by its code still does: that stays its hub id.
            try db.execute(sql: """
                UPDATE guests SET code = kiosk_code_digest(?1), sealed = kiosk_seal_guest(?1, kiosk_guest_field(sealed, 'name'),
                    kiosk_guest_field(sealed, 'email'), kiosk_guest_field(sealed, 'company')), order_digest = NULL,
                    hub_id = COALESCE(hub_id, CASE WHEN from_hub THEN kiosk_seal(kiosk_guest_field(sealed, 'code')) END) WHERE id = ?2
                """, arguments: [retiredCode(id), id])
        } else {
            try db.execute(sql: "DELETE FROM guests WHERE id = ?", arguments: [id])
        }
    }

    /// An organizer merged a walk-in into a registration at the hub: everything here that names
    /// the walk-in moves to the registration, in the caller's transaction, and the walk-in goes.
    ///
    /// - Check-ins (this station's and other stations') take the registration's id and key, as
    ///   the hub re-pointed them; a copy the hub already sent under the new key gives way to this
    ///   station's own row, keeping the later undo of the two.
    /// - Queued check-ins and undos are rewritten to upload under the registration.
    /// - A queued upload of the walk-in itself is settled, never sent: the hub merged it, so it
    ///   has it (the station only missed the answer), and sent anew it would only name a guest
    ///   the hub no longer lists.
    static func mergeGuest(_ db: Database, _ merge: GuestMerge, at: Timestamp) throws {
        let old = merge.guestID, new = merge.into
        guard old != new else { return }
        let newKey = "device_id || '/' || ?1 || '/' || scanned_at"
        try db.execute(sql: """
            UPDATE check_ins AS o SET undone_at = COALESCE(o.undone_at, (
                SELECT n.undone_at FROM check_ins n WHERE n.idempotency_key = o.device_id || '/' || ?1 || '/' || o.scanned_at))
            WHERE o.guest_id = ?2
            """, arguments: [new, old])
        try db.execute(sql: """
            DELETE FROM check_ins WHERE origin != 'local' AND guest_id = ?1
              AND idempotency_key IN (SELECT \(newKey) FROM check_ins WHERE guest_id = ?2)
            """, arguments: [new, old])
        try db.execute(sql: """
            UPDATE check_ins SET guest_id = ?1, idempotency_key = \(newKey)
            WHERE guest_id = ?2 AND NOT EXISTS (SELECT 1 FROM check_ins d WHERE d.idempotency_key = check_ins.device_id || '/' || ?1 || '/' || check_ins.scanned_at)
            """, arguments: [new, old])
        let entries = try Row.fetchAll(db, sql: "SELECT id, kind, kiosk_open(payload) AS payload FROM outbox WHERE guest_id = ? AND state = 'pending'", arguments: [old])
        for entry in entries {
            guard let change = try? OutboxChange(kind: entry["kind"], payload: entry["payload"]) else { continue }
            if case .walkIn = change {
                try db.execute(sql: "UPDATE outbox SET state = 'synced', hold = NULL, last_error = ? WHERE id = ?",
                               arguments: ["merged into \(new) at the hub", entry["id"] as Int64])
                continue
            }
            let rekeyed = change.rekeyed(from: old, to: new)
            // A new key to the hub: answers about the walk-in's no longer count against it.
            try db.execute(sql: "UPDATE outbox SET guest_id = ?, ref = ?, payload = kiosk_seal(?), hold = NULL, unknown_answers = 0 WHERE id = ?",
                           arguments: [new, rekeyed.ref, try rekeyed.payload(), entry["id"] as Int64])
        }
        if try db.tableExists("print_jobs") {
            try db.execute(sql: "UPDATE print_jobs SET guest_id = ? WHERE guest_id = ?", arguments: [new, old])
        }
        try removeGuest(db, id: old)
        let deviceID = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = 'device_id'") ?? ""
        try AuditEntry.sync(.merge, at: at, deviceID: deviceID, guestID: new, detail: "walk-in \(old) merged into \(new) at the hub").insert(db)
    }

    // MARK: Roster pages

    /// Applies roster pages in one transaction and stores the last page's cursor with them, so a
    /// download killed at any point resumes from the last committed cursor and reaches the same
    /// roster as an uninterrupted one.
    /// - Parameters:
    ///   - complete: marks the event as fully downloaded (the last page of a pull); the search
    ///     index of staged guests is then built in the background.
    ///   - movesCursor: `false` for guests learnt outside a download (a signed ticket verified at
    ///     the door): the download's cursor stays where it is.
    public func applyRoster(_ deltas: [RosterDelta], eventID: String, complete: Bool, at: Timestamp = .now(),
                            movesCursor: Bool = true) async throws(StoreError) {
        try requireUsable()
        guard let last = deltas.last else { return }
        let cipher = keys.cipher
        let ids = HubGuestIDs(cipher: cipher)
        let mapped = deltas.map(ids.stationTerms)
        let deltas = mapped.map(\.delta)
        let hubIDs = mapped.flatMap(\.hubIDs)
        try await wrap {
            try await bulkWrite { db in
                // A page for an event the station no longer uses (switched meanwhile) is dropped.
                let current = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [SyncSettingKey.eventID.rawValue])
                guard current == eventID else { return }
                let now = at.milliseconds
                for delta in deltas {
                    for type in delta.accessTypes { try AccessTypeRecord(type, updatedAt: at).upsert(db) }
                }
                // Rows after this one are new: indexed for search by rowid. A guest written over an
                // existing row (a replayed page, a guest changed at the hub) is re-indexed by id.
                let lastRowID = try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(rowid), 0) FROM guests") ?? 0
                let guests = deltas.flatMap(\.guests)
                try RosterStore.withDeferredSearchIndex(db, rows: guests.count) { batch in
                    let upsert = try db.makeStatement(sql: RosterStore.sealedGuestUpsertSQL)
                    var sealing = SealingSlices(cipher: cipher, guests: guests, fields: GuestFields.init)
                    defer { sealing.finish() }
                    var index = 0
                    for delta in deltas {
                        for guest in delta.guests {
                            let fields = sealing.sealed(index)
                            let hubID = hubIDs[index]
                            index += 1
                            let arguments = GuestRecord(guest, sealed: fields, updatedAt: at, fromHub: true, hubID: hubID).rowArguments
                            var rowID: Int64?
                            do {
                                rowID = try Int64.fetchOne(upsert, arguments: arguments)
                            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                                // The code belongs to another guest here. Only this statement failed:
                                // make room for the hub's guest, then write it again.
                                try Self.yieldCode(db, code: guest.code.value, to: guest.id, at: at)
                                rowID = try Int64.fetchOne(upsert, arguments: arguments)
                            }
                            if (rowID ?? 0) <= lastRowID { batch.changedIDs.append(guest.id) }
                            if let rowID { try batch.index(rowID, fields.tokens) }
                        }
                        for id in delta.deletedGuestIDs { try Self.removeGuest(db, id: id) }
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
                // Last: a merge moves whatever these pages brought of the walk-in too.
                for delta in deltas {
                    for merge in delta.merges { try Self.mergeGuest(db, merge, at: at) }
                }
                if movesCursor { try Self.put(db, SyncSettingKey.cursor.rawValue, last.nextCursor) }
                if complete {
                    try Self.put(db, SyncSettingKey.complete.rawValue, "1")
                    try Self.put(db, SettingKey.lastPull.rawValue, at.iso8601)
                    try Self.put(db, SettingKey.rosterImportedAt.rawValue, String(now))
                }
            }
        }
        // Guests staged for search by this download are indexed now that it is done (before,
        // the catch-up would only slow the download down).
        if complete { searchIndex.indexInBackground() }
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
