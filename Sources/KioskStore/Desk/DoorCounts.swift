import CheckInCore
import GRDB

/// The numbers staff watch during the rush, from this station's copy of the roster.
public struct DoorCounts: Sendable, Equatable {
    /// Guests admitted at this station.
    public var here: Int
    /// Guests admitted at any door this station knows of (its own, and the hub's copy).
    public var allDoors: Int
    /// Guests on the roster, revoked ones left out.
    public var expected: Int
    /// Guests whose last movement is an entry.
    public var inside: Int
}

extension CheckInStore {
    /// What staff watch during the rush (see ``DoorCounts``).
    public func doorCounts() throws(StoreError) -> DoorCounts {
        let deviceID = database.deviceID
        return try wrap {
            try writer.read { db in
                let here = try Int.fetchOne(db, sql: """
                    SELECT COUNT(DISTINCT guest_id) FROM check_ins WHERE device_id = ? AND direction = 'entry' AND undone_at IS NULL
                    """, arguments: [deviceID]) ?? 0
                let allDoors = try Int.fetchOne(db, sql: """
                    SELECT COUNT(DISTINCT guest_id) FROM check_ins WHERE direction = 'entry' AND undone_at IS NULL
                    """) ?? 0
                let expected = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM guests WHERE NOT revoked") ?? 0
                // The last movement per guest: an entry means inside.
                let inside = try Int.fetchOne(db, sql: """
                    SELECT COUNT(*) FROM (
                        SELECT guest_id, direction, ROW_NUMBER() OVER (PARTITION BY guest_id ORDER BY scanned_at DESC, id DESC) AS n
                        FROM check_ins WHERE undone_at IS NULL
                    ) WHERE n = 1 AND direction = 'entry'
                    """) ?? 0
                return DoorCounts(here: here, allDoors: allDoors, expected: expected, inside: inside)
            }
        }
    }
}
