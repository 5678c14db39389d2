import CheckInCore
import GRDB
import HubAPI

/// The stations' latest health reports on SQLite (0007_station_reports.sql).
extension SQLiteHubStore {
    public func recordStationReport(event: String, deviceID: String, _ report: StationReport, receivedAt: Timestamp) async throws {
        try await pool.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM events WHERE id = ?", arguments: [event]) == true else {
                throw HubStoreError.unknownEvent(event)
            }
            try db.execute(
                sql: """
                    INSERT INTO station_reports (event_id, device_id, name, version, pending, printer_state, printer_words,
                        camera_state, camera_words, staff_name, station_time, received_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (event_id, device_id) DO UPDATE SET name = excluded.name, version = excluded.version,
                        pending = excluded.pending, printer_state = excluded.printer_state, printer_words = excluded.printer_words,
                        camera_state = excluded.camera_state, camera_words = excluded.camera_words, staff_name = excluded.staff_name,
                        station_time = excluded.station_time, received_at = excluded.received_at
                    """,
                arguments: [event, deviceID, report.name, report.version, report.pending, report.printer?.state, report.printer?.words,
                            report.camera?.state, report.camera?.words, report.staffName, report.stationTime.milliseconds,
                            receivedAt.milliseconds])
        }
    }

    public func stationContacts(event: String) async throws -> [StationContact] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM station_reports WHERE event_id = ? ORDER BY name, device_id", arguments: [event]).map { row in
                func part(_ prefix: String) -> StationPart? {
                    guard let state = row[prefix + "_state"] as String? else { return nil }
                    return StationPart(state: state, words: row[prefix + "_words"] ?? "")
                }
                let report = StationReport(
                    name: row["name"], version: row["version"], pending: row["pending"], printer: part("printer"), camera: part("camera"),
                    staffName: row["staff_name"], stationTime: Timestamp(milliseconds: row["station_time"]))
                return StationContact(deviceID: row["device_id"], report: report, receivedAt: Timestamp(milliseconds: row["received_at"]))
            }
        }
    }
}
