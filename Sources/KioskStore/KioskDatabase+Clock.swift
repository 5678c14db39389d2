import CheckInCore
import GRDB

/// Whether this station's clock can be believed.
public enum ClockState: Sendable, Hashable {
    case plausible
    /// The clock reads before 2020 (a box without a real-time clock that booted without network
    /// time), or more than a day away from the hub's clock at its last answer.
    case wrong(skewMilliseconds: Int64?)

    /// What the operator sees ("Clock wrong — set the time").
    public var message: String? {
        switch self {
        case .plausible: nil
        case .wrong: "Clock wrong — set the time"
        }
    }
}

extension KioskDatabase {
    /// How far this station's clock was from the hub's at its last answer (local minus hub), in
    /// milliseconds, when that is more than ``PlausibleTime/maximumLeadMilliseconds``; kept so
    /// that changes recorded meanwhile are marked.
    static let clockSkewKey = "clock_skew_ms"

    /// The station clock as the operator should see it.
    public func clockState(now: Timestamp = .now()) throws(StoreError) -> ClockState {
        try wrap {
            try writer.read { db in
                let skew = try Self.clockSkew(db)
                return try Self.clockIsPlausible(db, at: now) ? .plausible : .wrong(skewMilliseconds: skew)
            }
        }
    }

    /// Records how far the station's clock is from the hub's (`local - hub`); a skew within a
    /// day clears the fault.
    public func recordClockSkew(milliseconds skew: Int64) async throws(StoreError) {
        try requireUsable()
        let wrong = skew.magnitude > UInt64(PlausibleTime.maximumLeadMilliseconds)
        try await wrap {
            try await writer.write { db in
                if wrong {
                    try Self.put(db, Self.clockSkewKey, String(skew))
                } else {
                    try db.execute(sql: "DELETE FROM settings WHERE key = ?", arguments: [Self.clockSkewKey])
                }
            }
        }
    }

    static func clockSkew(_ db: Database) throws -> Int64? {
        try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [clockSkewKey]).flatMap(Int64.init)
    }

    /// Whether a reading `time` of this station's clock is believable.
    static func clockIsPlausible(_ db: Database, at time: Timestamp) throws -> Bool {
        guard PlausibleTime.isPlausibleClock(time) else { return false }
        return try clockSkew(db) == nil
    }
}
