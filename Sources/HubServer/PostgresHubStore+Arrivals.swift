import CheckInCore
import PostgresNIO

extension PostgresHubStore {
    public func arrivals(event: String, from: Timestamp, until: Timestamp, bucketMilliseconds: Int64) async throws -> [ArrivalCount] {
        guard bucketMilliseconds > 0, until > from else { return [] }
        var binds = PostgresBindings()
        binds.append(event)
        binds.append(from.milliseconds)
        binds.append(bucketMilliseconds)
        binds.append(until.milliseconds)
        return try await rows(PostgresQuery(unsafeSQL: ArrivalsSQL.perBucket, binds: binds)).map {
            ArrivalCount(bucket: Int(try $0["bucket"].decode(Int64.self)), entries: Int(try $0["entries"].decode(Int64.self)))
        }
    }
}
