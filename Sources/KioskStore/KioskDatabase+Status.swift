import CheckInCore
import GRDB

/// What `kiosk status` reports, readable even when a migration failed.
public struct StationStatus: Sendable {
    public var schemaVersion: Int
    public var storage: StorageState
    public var deviceID: String
    public var stationName: String?
    public var guests: Int
    public var accessTypes: Int
    public var checkedIn: Int
    /// Guests stored by a bulk write and not yet in the search index (found by a slower scan).
    public var searchPending: Int
    public var rosterImportedAt: Timestamp?
    /// Outbox entries waiting for the hub.
    public var pending: Int
    /// Of the pending ones, held until the next roster pull (unknown code, implausible time).
    public var held: Int
    /// Outbox entries the hub refused for good (need an operator's look).
    public var rejected: Int
    /// Whether this station's clock can be believed.
    public var clock: ClockState
    public var hubURL: String?
    public var syncState: String
    public var lastPull: String?
    public var lastPush: String?
}

extension KioskDatabase {
    /// The station's state; reports the "updated" notice once when `consumeNotice` is set.
    public func status(consumeNotice: Bool = true) throws(StoreError) -> StationStatus {
        var storage = self.storage
        if storage == .ready, consumeNotice, let notice = try takeUpdateNotice() {
            storage = .updated(from: notice.from, to: notice.to)
        }
        let state = storage
        let deviceID = self.deviceID
        return try wrap {
            try writer.read { db in
                // After a failed migration the tables may be those of an older version: count what exists.
                func count(_ table: String, _ condition: String = "1") throws -> Int {
                    guard try db.tableExists(table) else { return 0 }
                    return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE \(condition)") ?? 0
                }
                func setting(_ key: SettingKey) throws -> String? {
                    guard try db.tableExists("settings") else { return nil }
                    return try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [key.rawValue])
                }
                let hub = try setting(.hubURL)
                return StationStatus(
                    schemaVersion: try Int.fetchOne(db, sql: "SELECT MAX(version) FROM schema_migrations") ?? 0,
                    storage: state,
                    deviceID: deviceID,
                    stationName: try setting(.stationName),
                    guests: try count("guests"),
                    accessTypes: try count("access_types"),
                    checkedIn: try db.tableExists("check_ins")
                        ? (try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT guest_id) FROM check_ins WHERE undone_at IS NULL AND direction = 'entry'") ?? 0) : 0,
                    searchPending: try count("search_pending"),
                    rosterImportedAt: try setting(.rosterImportedAt).flatMap(Int64.init).map(Timestamp.init(milliseconds:)),
                    pending: try count("outbox", "state = 'pending'"),
                    held: try db.columns(in: "outbox").contains { $0.name == "hold" } ? count("outbox", "state = 'pending' AND hold IS NOT NULL") : 0,
                    rejected: try count("outbox", "state = 'rejected'"),
                    clock: try db.tableExists("settings") && !Self.clockIsPlausible(db, at: .now()) ? .wrong(skewMilliseconds: try Self.clockSkew(db)) : .plausible,
                    hubURL: hub,
                    syncState: hub == nil ? "not_configured" : (try setting(.syncState) ?? "offline"),
                    lastPull: try setting(.lastPull),
                    lastPush: try setting(.lastPush))
            }
        }
    }
}

extension StationStatus {
    /// The `kiosk status --json` document.
    public var json: JSONValue {
        [
            "schema_version": .int(schemaVersion),
            "storage": .object(storage.json),
            "roster": ["guests": .int(guests), "access_types": .int(accessTypes), "checked_in": .int(checkedIn),
                       "search_index_pending": .int(searchPending),
                       "imported_at": .optional(rosterImportedAt?.iso8601)],
            "clock": ["state": .string(clock == .plausible ? "ok" : "wrong"), "message": .optional(clock.message)],
            "sync": ["state": .string(syncState), "pending": .int(pending), "held": .int(held), "rejected": .int(rejected),
                     "hub": .optional(hubURL), "last_pull": .optional(lastPull), "last_push": .optional(lastPush)],
            "device_id": .string(deviceID),
            "station": .optional(stationName),
        ]
    }
}
