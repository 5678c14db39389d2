import CheckInCore
import GRDB

extension SQLiteHubStore {
    public func arrivals(event: String, from: Timestamp, until: Timestamp, bucketMilliseconds: Int64) async throws -> [ArrivalCount] {
        guard bucketMilliseconds > 0, until > from else { return [] }
        return try await pool.read { db in
            try Row.fetchAll(db, sql: StatsSQL.sqlite(ArrivalsSQL.perBucket),
                             arguments: [event, from.milliseconds, bucketMilliseconds, until.milliseconds]).map {
                ArrivalCount(bucket: $0["bucket"], entries: $0["entries"])
            }
        }
    }
}
