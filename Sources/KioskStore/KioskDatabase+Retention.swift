import CheckInCore
import Foundation
import GRDB
import Logging

/// What happens to guest data once the event is over.
public enum RetentionOutcome: Sendable, Equatable {
    /// Nothing to purge yet (the event has not ended long enough ago, or its end is unknown).
    case kept
    /// The roster and check-ins the hub has were purged; changes still waiting for the hub stay.
    case purged(event: String)
}

/// Why `kiosk storage purge` refused.
public enum PurgeRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// A station without a hub: the attendance must be exported after the last check-in first.
    case attendanceNotExported
    /// Changes not yet uploaded to the hub: they stay until the hub has them.
    case pendingUploads(Int)

    public var description: String {
        switch self {
        case .attendanceNotExported:
            "This station has no hub: its check-ins exist only here. Export the attendance first (kiosk export attendance FILE.csv), then purge."
        case .pendingUploads(let count):
            "\(count) changes have not reached the hub yet: sync first (kiosk sync), or they stay on the station."
        }
    }
}

extension KioskDatabase {
    /// The station's event has ended more than `retention` ago: purges what the hub has (as at
    /// sign-out) and forgets the event. Stations without a hub are never purged here.
    public func purgeIfEventEnded(retention: Duration, now: Timestamp = .now()) async throws(StoreError) -> RetentionOutcome {
        guard storage.isUsable, let event = try syncEvent(),
              let ends = try wrap({ try writer.read { db in
                  try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [SyncSettingKey.eventEndsAt.rawValue])
              } }).flatMap(Int64.init) else { return .kept }
        let (seconds, _) = retention.components
        let due = Timestamp(milliseconds: ends).adding(milliseconds: seconds.multipliedReportingOverflow(by: 1_000).overflow ? .max : seconds * 1_000)
        guard now >= due else { return .kept }
        try await clearSyncedRoster(forgetEvent: true)
        try await compact()
        logger.notice("purged the guest data of an event that ended", metadata: ["event": "\(event.eventID)"])
        return .purged(event: event.eventName)
    }

    /// The operator's word: purges every guest and check-in. With a hub, what the hub has (as at
    /// sign-out; changes waiting for it stay). Without one, only after the attendance was
    /// exported since the last check-in, since nothing else holds it.
    public func purgeOnOperatorsWord() async throws(StoreError) -> Result<Int, PurgeRefusal> {
        try requireUsable()
        let hub = try setting(.hubURL)
        if hub == nil {
            let exported = try setting(.attendanceExportedAt).flatMap { Timestamp(iso8601: $0) }
            let last = try wrap { try writer.read { db in
                try Int64.fetchOne(db, sql: "SELECT MAX(m) FROM (SELECT MAX(scanned_at) AS m FROM check_ins UNION ALL SELECT MAX(COALESCE(undone_at, 0)) FROM check_ins)")
            } }
            guard let exported, exported.milliseconds >= (last ?? 0) else { return .failure(.attendanceNotExported) }
        }
        let guests = try wrap { try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM guests") ?? 0 } }
        if hub == nil {
            try await wrap {
                try await writer.writeWithoutTransaction { db in
                    try SecureDeletion.run(db) {
                        try db.inTransaction {
                            try db.execute(sql: "DELETE FROM outbox")
                            try db.execute(sql: "DELETE FROM check_ins")
                            try db.execute(sql: "DELETE FROM print_jobs")
                            try db.execute(sql: "DELETE FROM guests")
                            try db.execute(sql: "DELETE FROM access_types")
                            try db.execute(sql: "DELETE FROM audit_log WHERE code IS NOT NULL OR detail IS NOT NULL")
                            return .commit
                        }
                    }
                }
            }
            try await compact()
            return .success(guests)
        }
        // What the hub has goes; what it has not received stays, and the operator is told.
        let pending = try outbox.pendingCount()
        try await clearSyncedRoster(forgetEvent: true)
        try await compact()
        return pending > 0 ? .failure(.pendingUploads(pending)) : .success(guests)
    }

    /// See ``SecureDeletion/compact(_:)``.
    func compact() async throws(StoreError) {
        try await wrap { try await writer.writeWithoutTransaction { db in try SecureDeletion.compact(db) } }
    }
}
