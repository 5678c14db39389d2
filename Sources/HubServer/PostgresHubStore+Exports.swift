import CheckInCore
import HubAPI
import PostgresNIO

/// The dashboard's exports on PostgreSQL (``ExportSQL``).
extension PostgresHubStore {
    static func eventBinds(_ event: String) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(event)
        return binds
    }

    public func attendance(event: String) async throws -> [AttendanceRecord] {
        try await rows(PostgresQuery(unsafeSQL: ExportSQL.attendance, binds: Self.eventBinds(event))).map { row in
            AttendanceRecord(
                code: try row["code"].decode(String.self), name: try row["name"].decode(String.self), email: try row["email"].decode(String.self),
                company: try row["company"].decode(String.self), accessType: try row["access_type"].decode(String.self),
                walkIn: try row["walk_in"].decode(Bool.self), revoked: try row["revoked"].decode(Bool.self),
                firstEntry: try row["first_at"].decode(Int64?.self).map(Timestamp.init(milliseconds:)),
                firstStation: try row["first_station"].decode(String?.self), firstOperator: try row["first_operator"].decode(String?.self),
                entries: try row["entries"].decode(Int.self), lastExit: try row["last_exit"].decode(Int64?.self).map(Timestamp.init(milliseconds:)))
        }
    }

    public func hubLog(event: String) async throws -> [HubLogEntry] {
        try await rows(PostgresQuery(unsafeSQL: ExportSQL.hubLog, binds: Self.eventBinds(event))).map { row in
            HubLogEntry(
                at: Timestamp(milliseconds: try row["at"].decode(Int64.self)),
                kind: HubLogEntry.Kind(rawValue: try row["kind"].decode(String.self)) ?? .checkIn, outcome: try row["outcome"].decode(String.self),
                detail: try row["detail"].decode(String?.self) ?? "", guestID: try row["guest_id"].decode(String.self),
                station: try row["station"].decode(String.self), deviceID: try row["device_id"].decode(String.self),
                operatorName: try row["operator_name"].decode(String.self), account: try row["account"].decode(String.self),
                scannedAt: try row["scanned_at"].decode(Int64?.self).map(Timestamp.init(milliseconds:)))
        }
    }
}
