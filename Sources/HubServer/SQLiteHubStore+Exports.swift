import CheckInCore
import GRDB
import HubAPI

/// The dashboard's exports on SQLite (``ExportSQL``).
extension SQLiteHubStore {
    public func attendance(event: String) async throws -> [AttendanceRecord] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: StatsSQL.sqlite(ExportSQL.attendance), arguments: [event]).map { row in
                AttendanceRecord(
                    code: row["code"], name: row["name"], email: row["email"], company: row["company"], accessType: row["access_type"],
                    walkIn: row["walk_in"], revoked: row["revoked"], firstEntry: (row["first_at"] as Int64?).map(Timestamp.init(milliseconds:)),
                    firstStation: row["first_station"], firstOperator: row["first_operator"], entries: row["entries"],
                    lastExit: (row["last_exit"] as Int64?).map(Timestamp.init(milliseconds:)))
            }
        }
    }

    public func hubLog(event: String) async throws -> [HubLogEntry] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: StatsSQL.sqlite(ExportSQL.hubLog), arguments: [event]).map { row in
                HubLogEntry(
                    at: Timestamp(milliseconds: row["at"]), kind: HubLogEntry.Kind(rawValue: row["kind"]) ?? .checkIn, outcome: row["outcome"],
                    detail: row["detail"] ?? "", guestID: row["guest_id"], station: row["station"], deviceID: row["device_id"],
                    operatorName: row["operator_name"], account: row["account"],
                    scannedAt: (row["scanned_at"] as Int64?).map(Timestamp.init(milliseconds:)))
            }
        }
    }
}
