import CheckInCore
import GRDB

extension SQLiteHubStore {
    public func recentCheckIns(event: String, limit: Int) async throws -> [RecentCheckIn] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: StatsSQL.sqlite(RecentCheckInsSQL.latest), arguments: [event, limit]).map {
                RecentCheckIn(guestName: $0["guest_name"], station: $0["station"], operatorName: $0["operator_name"], source: $0["source"],
                              direction: $0["direction"], scannedAt: Timestamp(milliseconds: $0["scanned_at"]))
            }
        }
    }
}
