import Foundation
import CheckInCore
import GRDB

/// Station identity and event rules kept in the `settings` table.
extension KioskDatabase {
    /// Setting keys used across the station.
    public enum SettingKey: String, Sendable {
        case stationName = "station_name"
        case operatorName = "operator_name"
        case toleranceWindowMilliseconds = "tolerance_window_ms"
        /// The hub event's station undo time (``CheckInCore/StationUndoWindow``); none without a hub.
        case stationUndoMilliseconds = "station_undo_ms"
        case caseInsensitiveCodes = "case_insensitive_codes"
        case admittedAccessTypes = "admitted_access_types"
        case rosterImportedAt = "roster_imported_at"
        case hubURL = "hub_url"
        case syncState = "sync_state"
        case lastPull = "last_pull"
        case lastPush = "last_push"
        /// When `kiosk export attendance` last wrote the attendance (the operator's word that it
        /// is kept elsewhere, before any purge of a station without a hub).
        case attendanceExportedAt = "attendance_exported_at"
        /// The venue's IANA time zone (`time_zone` in kiosk.conf; none: the system's).
        case timeZone = "time_zone"
        /// The self-service PIN's wrong entries and lockout, kept across restarts (JSON).
        case pinGuard = "pin_guard"
        /// What the station says of its pretix link once it ended (revoked in pretix, or
        /// disconnected here): shown by `kiosk status` until it connects again.
        case pretixNotice = "pretix_notice"
    }

    /// The time zone dates without an offset in an imported roster are read in: the station's
    /// `time_zone` setting, or the system's.
    public func venueTimeZone() throws(StoreError) -> TimeZone {
        try setting(.timeZone).flatMap(TimeZone.init(identifier:)) ?? .current
    }

    public func setting(_ key: SettingKey) throws(StoreError) -> String? {
        try wrap { try writer.read { db in try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [key.rawValue]) } }
    }

    public func setSetting(_ key: SettingKey, _ value: String?) async throws(StoreError) {
        try requireUsable()
        try await wrap {
            try await writer.write { db in
                if let value {
                    try db.execute(sql: "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", arguments: [key.rawValue, value])
                } else {
                    try db.execute(sql: "DELETE FROM settings WHERE key = ?", arguments: [key.rawValue])
                }
            }
        }
    }

    /// This station's device secret: random, created once, sent only when the station registers
    /// at a hub, which binds the device id to it so no other session can claim the id.
    public func deviceSecret() async throws(StoreError) -> String {
        try requireUsable()
        return try await wrap {
            try await writer.write { db in
                if let existing = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = 'device_secret'") { return existing }
                var generator = SystemRandomNumberGenerator()
                let secret = (0..<4).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
                try db.execute(sql: "INSERT INTO settings (key, value) VALUES ('device_secret', ?)", arguments: [secret])
                return secret
            }
        }
    }

    /// The station name shown in "already checked in … at Door 2" (default: "Station" + device id prefix).
    public func stationName() throws(StoreError) -> String {
        try setting(.stationName) ?? "Station \(deviceID.prefix(4).uppercased())"
    }

    /// The station and operator names to record, from the request or the settings.
    func identity(station: String?, operatorName: String?) throws(StoreError) -> (station: String, operatorName: String) {
        let resolvedStation: String
        if let station { resolvedStation = station } else { resolvedStation = try stationName() }
        let resolvedOperator: String
        if let operatorName { resolvedOperator = operatorName } else { resolvedOperator = try setting(.operatorName) ?? "kiosk" }
        return (resolvedStation, resolvedOperator)
    }

    /// The event's rules as last configured or synced.
    static func policy(_ db: Database) throws -> EventPolicy {
        let window = try Int64.fetchOne(db, sql: "SELECT CAST(value AS INTEGER) FROM settings WHERE key = ?", arguments: [SettingKey.toleranceWindowMilliseconds.rawValue])
        let caseInsensitive = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [SettingKey.caseInsensitiveCodes.rawValue])
        return EventPolicy(
            toleranceWindowMilliseconds: window ?? EventPolicy.defaultToleranceWindowMilliseconds,
            caseInsensitiveCodes: caseInsensitive.map { $0 != "0" && $0 != "false" } ?? true)
    }

    /// How long the hub takes this station's undo of a check-in; `nil` without a hub event.
    static func stationUndoWindow(_ db: Database) throws -> StationUndoWindow? {
        try Int64.fetchOne(db, sql: "SELECT CAST(value AS INTEGER) FROM settings WHERE key = ?",
                           arguments: [SettingKey.stationUndoMilliseconds.rawValue]).map(StationUndoWindow.init(milliseconds:))
    }

    static func admittedAccessTypes(_ db: Database) throws -> Set<String>? {
        guard let value = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [SettingKey.admittedAccessTypes.rawValue]),
              !value.isEmpty else { return nil }
        return Set(value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    }
}
