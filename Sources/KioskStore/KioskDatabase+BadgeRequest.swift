import CheckInCore
import GRDB

/// Whether a check-in or walk-in should put a badge in the print queue, and on which queue.
public struct BadgeRequest: Sendable, Equatable {
    public var policy: PrintPolicy
    /// The queue the job is written for (the print queue may move it to its failover queue).
    public var queue: String

    public init(policy: PrintPolicy, queue: String) {
        self.policy = policy
        self.queue = queue
    }
}

extension KioskDatabase {
    // TEMPORARY until the print queue's own `enqueueBadge` lands (same signature).
    static func enqueueBadge(_ db: Database, guestID: String, code: String, walkIn: Bool, policy: PrintPolicy, queue: String,
                             at: Timestamp) throws -> PrintJobRecord? {
        let printed = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM print_jobs WHERE guest_id = ? AND state NOT IN ('failed', 'canceled'))
            """, arguments: [guestID]) ?? false
        guard policy.printsAutomatically(walkIn: walkIn, alreadyPrinted: printed) else { return nil }
        try db.execute(sql: """
            INSERT INTO print_jobs (guest_id, code, queue, state, created_at, updated_at) VALUES (?, ?, ?, 'queued', ?, ?)
            """, arguments: [guestID, code, queue, at.milliseconds, at.milliseconds])
        return try Row.fetchOne(db, sql: "SELECT * FROM print_jobs WHERE id = ?", arguments: [db.lastInsertedRowID]).map(PrintJobRecord.init)
    }
}
