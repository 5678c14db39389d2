import CheckInCore
import PostgresNIO

extension PostgresHubStore {
    public func recentCheckIns(event: String, limit: Int) async throws -> [RecentCheckIn] {
        var binds = PostgresBindings()
        binds.append(event)
        binds.append(Int64(limit))
        return try await rows(PostgresQuery(unsafeSQL: RecentCheckInsSQL.latest, binds: binds)).map {
            RecentCheckIn(
                guestName: try $0["guest_name"].decode(String.self), station: try $0["station"].decode(String.self),
                operatorName: try $0["operator_name"].decode(String.self), source: try $0["source"].decode(String.self),
                direction: try $0["direction"].decode(String.self), scannedAt: Timestamp(milliseconds: try $0["scanned_at"].decode(Int64.self)))
        }
    }
}
