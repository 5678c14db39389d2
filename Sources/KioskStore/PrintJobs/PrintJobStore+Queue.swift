import CheckInCore
import GRDB

/// What the print queue changes on many jobs at once: holding the line behind a job no printer
/// can take, setting aside jobs that waited too long, and the operator's answer about them.
extension PrintJobStore {
    /// Marks every job waiting for a printer (`queued`, or `held` for another reason) `held` with
    /// this reason: when no printer can take the oldest job, the whole line waits, in order.
    /// - Returns: the jobs that changed.
    public func holdWaitingPrintJobs(reason: String, at: Timestamp = .now()) async throws(StoreError) -> [PrintJobRecord] {
        try await setState(of: "state = 'queued' OR (state = 'held' AND COALESCE(reason, '') <> ?)", [reason], to: .held, reason: reason, at: at)
    }

    /// Sets aside every job still waiting for a printer (queued or held) that was written before
    /// `cutoff` and that no operator released: the attendee may have left.
    /// - Returns: the jobs that changed.
    public func setAsideWaitingPrintJobs(createdBefore cutoff: Timestamp, reason: String, at: Timestamp = .now()) async throws(StoreError) -> [PrintJobRecord] {
        try await setState(of: "state IN ('queued', 'held') AND released_at IS NULL AND created_at < ?", [cutoff.milliseconds],
                           to: .awaitingOperator, reason: reason, at: at)
    }

    /// The operator's "print them": every job set aside, and every job that may already have
    /// printed (the question said so), goes back to the queue, in its order, on `queue` when
    /// given, and is never set aside again.
    /// - Returns: the jobs that changed.
    public func releaseSetAsidePrintJobs(toQueue queue: String?, at: Timestamp = .now()) async throws(StoreError) -> [PrintJobRecord] {
        try requireUsable()
        return try await wrap {
            try await writer.write { db in
                let ids = try Int64.fetchAll(db, sql: "SELECT id FROM print_jobs WHERE state IN (\(PrintJobState.waitingForOperatorSQL)) ORDER BY id")
                for id in ids {
                    try db.execute(sql: """
                        UPDATE print_jobs SET state = 'queued', reason = NULL, queue = COALESCE(?, queue), released_at = ?, updated_at = ?
                        WHERE id = ?
                        """, arguments: [queue, at.milliseconds, at.milliseconds, id])
                }
                return try ids.compactMap { try PrintJobRecord.fetch(db, id: $0) }
            }
        }
    }

    /// The operator's "cancel them": every job waiting for the operator's word is canceled.
    /// - Returns: the jobs that changed.
    public func cancelSetAsidePrintJobs(reason: String, at: Timestamp = .now()) async throws(StoreError) -> [PrintJobRecord] {
        try await setState(of: "state IN (\(PrintJobState.waitingForOperatorSQL))", [], to: .canceled, reason: reason, at: at, finished: true)
    }

    /// `condition` is SQL written in this file; values go in `arguments`.
    private func setState(of condition: String, _ arguments: StatementArguments, to state: PrintJobState, reason: String, at: Timestamp,
                          finished: Bool = false) async throws(StoreError) -> [PrintJobRecord] {
        try requireUsable()
        return try await wrap {
            try await writer.write { db in
                let ids = try Int64.fetchAll(db, sql: "SELECT id FROM print_jobs WHERE \(condition) ORDER BY id", arguments: arguments)
                for id in ids {
                    try db.execute(sql: """
                        UPDATE print_jobs SET state = ?, reason = ?, finished_at = CASE WHEN ? THEN ? ELSE finished_at END, updated_at = ?
                        WHERE id = ?
                        """, arguments: [state.rawValue, reason, finished, at.milliseconds, at.milliseconds, id])
                }
                return try ids.compactMap { try PrintJobRecord.fetch(db, id: $0) }
            }
        }
    }

    /// What a badge shows for a guest (read off the actor's thread: GRDB's reader queue).
    public func badgeGuest(id: String) async throws(StoreError) -> GuestDetails? {
        try await wrap { try await writer.read { db in try OpenedGuestRecord.fetchGuest(db, id: id).map { try GuestDetails.fetch(db, guest: $0) } } }
    }
}
