import CheckInCore
import HubAPI

/// What organizers read about an event (``ReportRepository``, ``ArrivalRepository``).
extension SQLHubStore {
    public func stats(event: String) async throws -> EventStats {
        try await database.read { connection in
            try await Self.requireEvent(event, on: connection)
            let binds: [SQLValue] = [.text(event)]
            let groups = try await connection.rows(SQL(StatsSQL.perAccessType, binds: binds)) {
                StatsGroup(id: try $0.text("id"), expected: try $0.int("expected"), checkedIn: try $0.int("checked_in"), inside: try $0.int("inside"))
            }
            let stations = try await connection.rows(SQL(StatsSQL.perStation, binds: binds)) {
                StatsGroup(id: try $0.text("station"), expected: 0, checkedIn: try $0.int("checked_in"), inside: 0)
            }
            let counts = try await connection.rows(SQL(StatsSQL.counts, binds: binds)) {
                (duplicates: try $0.int("duplicates"), conflicts: try $0.int("conflicts"), flaggedExits: try $0.int("flagged_exits"))
            }[0]
            return EventStats(
                expected: groups.map(\.expected).reduce(0, +), checkedIn: groups.map(\.checkedIn).reduce(0, +),
                inside: groups.map(\.inside).reduce(0, +), duplicates: counts.duplicates, conflicts: counts.conflicts,
                accessTypes: groups, stations: stations, flaggedExits: counts.flaggedExits)
        }
    }

    public func conflicts(event: String) async throws -> [Conflict] {
        try await database.rows(SQL(StatsSQL.conflicts, binds: [.text(event)])) {
            Conflict(guestID: try $0.text("guest_id"),
                     first: try PreviousCheckIn(row: $0, prefix: "prev_") ?? PreviousCheckIn(by: "", station: "", deviceID: "", at: Timestamp(milliseconds: 0)),
                     second: try PreviousCheckIn(movement: $0))
        }
    }

    public func flaggedExits(event: String) async throws -> [FlaggedExit] {
        try await database.rows(SQL(StatsSQL.flaggedExits, binds: [.text(event)])) { row in
            try CheckInFlag(rawValue: row.text("flag")).map { FlaggedExit(guestID: try row.text("guest_id"), flag: $0, exit: try PreviousCheckIn(movement: row)) }
        }.compactMap { $0 }
    }

    public func walkInReviews(event: String) async throws -> [WalkInReview] {
        try await database.rows(SQL(StatsSQL.walkInReviews, binds: [.text(event)])) { try WalkInReview(row: $0) }
    }

    public func recentCheckIns(event: String, limit: Int) async throws -> [RecentCheckIn] {
        try await database.rows(SQL(RecentCheckInsSQL.latest, binds: [.text(event), .integer(Int64(limit))])) { try RecentCheckIn(row: $0) }
    }

    public func arrivals(event: String, from: Timestamp, until: Timestamp, bucketMilliseconds: Int64) async throws -> [ArrivalCount] {
        guard bucketMilliseconds > 0, until > from else { return [] }
        return try await database.rows(SQL(ArrivalsSQL.perBucket, binds: [.text(event), from.sqlValue, .integer(bucketMilliseconds), until.sqlValue])) {
            ArrivalCount(bucket: try $0.int("bucket"), entries: try $0.int("entries"))
        }
    }
}

/// The stations' latest health reports (``StationRepository``).
extension SQLHubStore {
    public func recordStationReport(event: String, deviceID: String, _ report: StationReport, receivedAt: Timestamp) async throws {
        try await database.write(changing: nil) { connection in
            try await Self.requireEvent(event, on: connection)
            // Reports of one device arrive one at a time; two hub processes racing on one row
            // simply keep either: the next report, seconds later, replaces it.
            try await connection.execute("""
                INSERT INTO station_reports (event_id, device_id, name, version, pending, printer_state, printer_words,
                    camera_state, camera_words, staff_name, station_time, received_at)
                VALUES (\(event), \(deviceID), \(report.name), \(report.version), \(report.pending), \(report.printer?.state),
                    \(report.printer?.words), \(report.camera?.state), \(report.camera?.words), \(report.staffName), \(report.stationTime), \(receivedAt))
                ON CONFLICT (event_id, device_id) DO UPDATE SET name = excluded.name, version = excluded.version,
                    pending = excluded.pending, printer_state = excluded.printer_state, printer_words = excluded.printer_words,
                    camera_state = excluded.camera_state, camera_words = excluded.camera_words, staff_name = excluded.staff_name,
                    station_time = excluded.station_time, received_at = excluded.received_at
                """)
        }
    }

    public func stationContacts(event: String) async throws -> [StationContact] {
        try await database.rows("SELECT * FROM station_reports WHERE event_id = \(event) ORDER BY name, device_id") { try StationContact(row: $0) }
    }
}
