import CheckInCore
import HubAPI
import PostgresNIO

/// The stations' latest health reports on PostgreSQL (0007_station_reports.sql).
extension PostgresHubStore {
    public func recordStationReport(event: String, deviceID: String, _ report: StationReport, receivedAt: Timestamp) async throws {
        try await requireEvent(event)
        // Reports of one device arrive one at a time; two hub processes racing on one row
        // simply keep either: the next report, seconds later, replaces it.
        try await client.query("""
            INSERT INTO station_reports (event_id, device_id, name, version, pending, printer_state, printer_words,
                camera_state, camera_words, staff_name, station_time, received_at)
            VALUES (\(event), \(deviceID), \(report.name), \(report.version), \(report.pending), \(report.printer?.state),
                \(report.printer?.words), \(report.camera?.state), \(report.camera?.words), \(report.staffName),
                \(report.stationTime.milliseconds), \(receivedAt.milliseconds))
            ON CONFLICT (event_id, device_id) DO UPDATE SET name = excluded.name, version = excluded.version,
                pending = excluded.pending, printer_state = excluded.printer_state, printer_words = excluded.printer_words,
                camera_state = excluded.camera_state, camera_words = excluded.camera_words, staff_name = excluded.staff_name,
                station_time = excluded.station_time, received_at = excluded.received_at
            """, logger: logger)
    }

    public func stationContacts(event: String) async throws -> [StationContact] {
        try await rows("SELECT * FROM station_reports WHERE event_id = \(event) ORDER BY name, device_id").map { row in
            func part(_ prefix: String) throws -> StationPart? {
                guard let state = try row[prefix + "_state"].decode(String?.self) else { return nil }
                return StationPart(state: state, words: try row[prefix + "_words"].decode(String?.self) ?? "")
            }
            let report = StationReport(
                name: try row["name"].decode(String.self), version: try row["version"].decode(String.self),
                pending: try row["pending"].decode(Int.self), printer: try part("printer"), camera: try part("camera"),
                staffName: try row["staff_name"].decode(String.self),
                stationTime: Timestamp(milliseconds: try row["station_time"].decode(Int64.self)))
            return StationContact(deviceID: try row["device_id"].decode(String.self), report: report,
                                  receivedAt: Timestamp(milliseconds: try row["received_at"].decode(Int64.self)))
        }
    }
}
