import CheckInCore
import Foundation
import GRDB

extension KioskDatabase {
    /// Changes waiting for the hub: what the sync uploads, and what it learns back.
    public var outbox: OutboxStore { OutboxStore(database: self) }
}

/// The outbox's reads and the outcomes the hub sends back (recording a change is
/// ``KioskDatabase/enqueue(_:_:)``, in the transaction of the change itself).
public struct OutboxStore: StoreRepository {
    let database: KioskDatabase

    /// Every pending change, held or not, in replay order (scan time, then insertion).
    public func pendingOutbox(limit: Int = 500) throws(StoreError) -> [OutboxEntry] {
        try requireUsable()
        return try wrap {
            try writer.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT \(KioskDatabase.entryColumns) FROM outbox WHERE state = 'pending' ORDER BY sort_at, id LIMIT ?
                    """, arguments: [limit]).map(KioskDatabase.entry)
            }
        }
    }

    /// The next changes to upload to `destination`, in replay order: pending, not held, and not
    /// behind a held change of the same guest (an undo never overtakes its held check-in). Each
    /// change is in the hub's terms, as it is sent: the guest ids and check-in keys the hub knows
    /// (``HubGuestIDs``); the entry's `ref` stays the station's.
    public func uploadableOutbox(for destination: SyncDestination, limit: Int) async throws(StoreError) -> [OutboxEntry] {
        try requireUsable()
        return try await wrap {
            try await writer.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT \(KioskDatabase.entryColumns) FROM outbox o
                    WHERE o.state = 'pending' AND o.hold IS NULL AND o.hub_url = ? AND o.event_id = ?
                      AND NOT EXISTS (SELECT 1 FROM outbox h WHERE h.guest_id = o.guest_id AND h.state = 'pending'
                                      AND h.hold IS NOT NULL AND (h.sort_at < o.sort_at OR (h.sort_at = o.sort_at AND h.id < o.id)))
                    ORDER BY o.sort_at, o.id LIMIT ?
                    """, arguments: [destination.hubURL, destination.eventID, limit]).map(KioskDatabase.entry).map { entry in
                    var entry = entry
                    if case .success(let change) = entry.change { entry.change = .success(try KioskDatabase.hubTerms(db, change)) }
                    return entry
                }
            }
        }
    }

    /// Destinations on `hubURL` that have changes ready to upload, oldest change first.
    public func uploadDestinations(hubURL: String) async throws(StoreError) -> [SyncDestination] {
        try requireUsable()
        return try await wrap {
            try await writer.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT event_id, MIN(sort_at) AS first FROM outbox
                    WHERE state = 'pending' AND hold IS NULL AND hub_url = ? AND event_id IS NOT NULL
                    GROUP BY event_id ORDER BY first
                    """, arguments: [hubURL]).map { SyncDestination(hubURL: hubURL, eventID: $0["event_id"]) }
            }
        }
    }

    /// Pending changes per destination, with the event names the station knows.
    public func pendingGroups() throws(StoreError) -> [PendingGroup] {
        try wrap {
            try writer.read { db in
                guard try db.tableExists("outbox_events") else { return [] }
                return try Row.fetchAll(db, sql: """
                    SELECT o.hub_url, o.event_id, e.name, COUNT(*) AS pending, SUM(o.hold IS NOT NULL) AS held,
                        SUM(o.clock_suspect) AS suspect
                    FROM outbox o LEFT JOIN outbox_events e ON e.hub_url = o.hub_url AND e.event_id = o.event_id
                    WHERE o.state = 'pending' GROUP BY o.hub_url, o.event_id ORDER BY MIN(o.sort_at)
                    """).map { row in
                    let hub: String? = row["hub_url"], event: String? = row["event_id"]
                    return PendingGroup(
                        destination: hub.flatMap { hub in event.map { SyncDestination(hubURL: hub, eventID: $0) } },
                        eventName: row["name"], pending: row["pending"], held: row["held"], clockSuspect: row["suspect"])
                }
            }
        }
    }

    /// Number of changes still waiting for the hub (held ones included).
    public func pendingCount() throws(StoreError) -> Int {
        try wrap { try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE state = 'pending'") ?? 0 } }
    }

    /// Pending changes that belong somewhere else than `destination` (another event or hub).
    public func pendingCount(notFor destination: SyncDestination) throws(StoreError) -> Int {
        try wrap {
            try writer.read { db in
                try Int.fetchOne(db, sql: """
                    SELECT COUNT(*) FROM outbox WHERE state = 'pending' AND event_id IS NOT NULL
                      AND NOT (hub_url = ? AND event_id = ?)
                    """, arguments: [destination.hubURL, destination.eventID]) ?? 0
            }
        }
    }

    /// Entries the hub refused for good, oldest first, with their reasons.
    public func rejectedOutbox() throws(StoreError) -> [OutboxEntry] {
        try wrap {
            try writer.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT \(KioskDatabase.entryColumns) FROM outbox WHERE state = 'rejected' ORDER BY sort_at, id
                    """).map(KioskDatabase.entry)
            }
        }
    }

    // MARK: Settling

    /// Applies the hub's answers to uploaded entries in one transaction. Settled entries leave the
    /// pending queue (`synced` or `rejected`, kept for the record); a `duplicate` also updates
    /// the local check-in with who/where/when of the admission it duplicates; held ones wait
    /// for the next pull.
    public func applyOutboxOutcomes(_ results: [OutboxResult], at: Timestamp = .now()) async throws(StoreError) {
        try requireUsable()
        guard !results.isEmpty else { return }
        let deviceID = database.deviceID
        try await wrap {
            try await writer.write { db in
                var settled = false
                for result in results {
                    let id = result.id
                    guard let row = try Row.fetchOne(db, sql: "SELECT kind, ref, unknown_answers FROM outbox WHERE id = ? AND state = 'pending'",
                                                     arguments: [id]) else { continue }
                    let kind: String = row["kind"], ref: String = row["ref"]
                    let isCheckIn = kind == OutboxChange.Kind.checkIn.rawValue
                    func reject(_ reason: String, previous: PriorCheckIn?) throws {
                        let text = Sanitized.text(reason)
                        try db.execute(sql: "UPDATE outbox SET state = 'rejected', hold = NULL, attempts = attempts + 1, last_error = ? WHERE id = ?",
                                       arguments: [text, id])
                        if isCheckIn {
                            var detail: [String: JSONValue] = ["reason": .string(text)]
                            if let previous { detail["previous"] = Self.describe(previous) }
                            try db.execute(sql: "UPDATE check_ins SET hub_status = 'rejected', hub_detail = ? WHERE idempotency_key = ?",
                                           arguments: [JSONValue.object(detail).serialized, ref])
                        }
                        try AuditEntry.sync(.hubRejected, at: at, deviceID: deviceID, detail: "\(kind) \(ref): \(text)").insert(db)
                    }
                    switch result.outcome {
                    case .accepted:
                        settled = true
                        try db.execute(sql: "UPDATE outbox SET state = 'synced', hold = NULL, attempts = attempts + 1, last_error = NULL WHERE id = ?",
                                       arguments: [id])
                        if isCheckIn {
                            try db.execute(sql: "UPDATE check_ins SET hub_status = 'accepted', hub_detail = NULL WHERE idempotency_key = ?", arguments: [ref])
                        }
                    case .duplicate(let prior):
                        settled = true
                        let detail = Self.describe(prior)
                        try db.execute(sql: "UPDATE outbox SET state = 'synced', hold = NULL, attempts = attempts + 1, last_error = ? WHERE id = ?",
                                       arguments: ["duplicate of " + detail.serialized, id])
                        if isCheckIn {
                            try db.execute(sql: "UPDATE check_ins SET hub_status = 'duplicate', hub_detail = ? WHERE idempotency_key = ?",
                                           arguments: [detail.serialized, ref])
                        }
                    case .rejected(let reason, let previous):
                        settled = true
                        try reject(reason, previous: previous)
                    case .unknownCode(let reason):
                        let answers = (row["unknown_answers"] as Int) + 1
                        if answers >= OutboxHold.maximumUnknownAnswers {
                            settled = true
                            try db.execute(sql: "UPDATE outbox SET unknown_answers = ? WHERE id = ?", arguments: [answers, id])
                            try reject("\(reason) (still unknown after \(answers - 1) roster updates)", previous: nil)
                        } else {
                            try db.execute(sql: """
                                UPDATE outbox SET hold = ?, unknown_answers = ?, attempts = attempts + 1, last_error = ? WHERE id = ?
                                """, arguments: [OutboxHold.unknownCode.rawValue, answers, Sanitized.text(reason), id])
                        }
                    case .implausibleTime(let reason):
                        try db.execute(sql: "UPDATE outbox SET hold = ?, attempts = attempts + 1, last_error = ? WHERE id = ?",
                                       arguments: [OutboxHold.implausibleTime.rawValue, Sanitized.text(reason), id])
                    case .retry(let reason):
                        try db.execute(sql: "UPDATE outbox SET attempts = attempts + 1, last_error = ? WHERE id = ?",
                                       arguments: [Sanitized.text(reason), id])
                    }
                }
                if settled { try KioskDatabase.put(db, KioskDatabase.SettingKey.lastPush.rawValue, at.iso8601) }
            }
        }
    }

    /// After a roster pull, held changes are tried once more: the roster (ours or the hub's) may
    /// have caught up, or the hub's clock moved past a time that was ahead of it.
    public func releaseHeldChanges() async throws(StoreError) {
        try requireUsable()
        try await wrap {
            try await writer.write { db in
                try db.execute(sql: "UPDATE outbox SET hold = NULL WHERE state = 'pending' AND hold IS NOT NULL")
            }
        }
    }

    static func describe(_ prior: PriorCheckIn) -> JSONValue {
        ["by": .string(Sanitized.text(prior.by)), "station": .string(Sanitized.text(prior.station)),
         "device_id": .string(Sanitized.text(prior.deviceID)), "at": .string(prior.at.iso8601)]
    }

    /// Drops pending changes (`kiosk signout --discard`, `kiosk use --discard`), logged in the
    /// audit log with the count.
    /// - Parameter keeping: changes for this destination (and changes recorded without a hub)
    ///   are kept; `nil` drops every pending change.
    /// - Returns: how many were discarded.
    public func discardPending(operatorName: String, keeping: SyncDestination? = nil, reason: String = "at sign-out") async throws(StoreError) -> Int {
        try requireUsable()
        let deviceID = database.deviceID
        return try await wrap {
            try await writer.write { db in
                let condition = keeping == nil ? "state = 'pending'"
                    : "state = 'pending' AND event_id IS NOT NULL AND NOT (hub_url = ? AND event_id = ?)"
                let arguments: StatementArguments = keeping.map { [$0.hubURL, $0.eventID] } ?? []
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE \(condition)", arguments: arguments) ?? 0
                try db.execute(sql: "UPDATE outbox SET state = 'discarded' WHERE \(condition)", arguments: arguments)
                try AuditEntry(at: .now(), deviceID: deviceID, station: "", operatorName: operatorName, source: .station(.typed),
                               action: .discardPending, detail: "\(count) unsynced changes discarded \(reason)").insert(db)
                return count
            }
        }
    }
}
