import CheckInCore
import GRDB

/// Writing new badge jobs: by the check-in itself (the policy decides) or by an operator's reprint.
extension PrintJobStore {
    /// Queues a guest's badge inside the caller's write transaction, so the job is committed with
    /// the check-in that asked for it (or not at all), and the print queue finds it after a crash.
    ///
    /// ```swift
    /// try await writer.write { db in
    ///     let result = try CheckInStore.checkIn(db, …)
    ///     let job = try PrintJobStore.enqueueBadge(db, guestID: guest.id, code: guest.code.value, walkIn: false,
    ///                                              policy: .once, queue: "badge", at: request.at)
    /// }
    /// printQueue.nudge()
    /// ```
    /// - Parameters:
    ///   - walkIn: the guest was registered at the door just now.
    ///   - policy: the station's print policy; ``PrintPolicy/printsAutomatically(walkIn:alreadyPrinted:)``
    ///     decides, with `alreadyPrinted` true when a job of this guest printed or is on its way.
    ///   - queue: the printer queue the job goes to first.
    ///   - printedElsewhere: the ticket shop says another of its devices printed the guest's badge.
    /// - Returns: the queued job, or `nil` when the policy says no badge.
    public static func enqueueBadge(_ db: Database, guestID: String, code: String, walkIn: Bool, policy: PrintPolicy,
                                    queue: String, at: Timestamp, printedElsewhere: Bool = false) throws -> PrintJobRecord? {
        let alreadyPrinted = try printedElsewhere || hasBadge(db, guestID: guestID)
        guard policy.printsAutomatically(walkIn: walkIn, alreadyPrinted: alreadyPrinted) else { return nil }
        return try insertJob(db, guestID: guestID, code: code, queue: queue, reprint: false, requestedBy: "", at: at)
    }

    /// Whether a job of this guest printed, or is still on its way (what "print once" counts).
    public static func hasBadge(_ db: Database, guestID: String) throws -> Bool {
        let states = PrintJobState.allCases.filter(\.givesBadge).map(\.rawValue)
        let marks = states.map { _ in "?" }.joined(separator: ", ")
        return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM print_jobs WHERE guest_id = ? AND state IN (\(marks)))",
                                 arguments: StatementArguments([guestID] + states)) ?? false
    }

    /// Queues a badge an operator asked for, whatever the policy, and writes it to the audit log
    /// with the operator's name when it is a reprint.
    public func createPrintJob(guestID: String, code: String, queue: String, reprint: Bool,
                               requestedBy: String, at: Timestamp = .now()) async throws(StoreError) -> PrintJobRecord {
        try requireUsable()
        let deviceID = database.deviceID
        let (station, operatorName) = try database.identity(station: nil, operatorName: requestedBy.isEmpty ? nil : requestedBy)
        return try await wrap {
            try await writer.write { db in
                let job = try Self.insertJob(db, guestID: guestID, code: code, queue: queue, reprint: reprint, requestedBy: operatorName, at: at)
                if reprint {
                    try AuditEntry(at: at, deviceID: deviceID, station: station, operatorName: operatorName, source: .station(.typed),
                                   action: .reprint, code: code, guestID: guestID, detail: "print job \(job.id)").insert(db)
                }
                return job
            }
        }
    }

    private static func insertJob(_ db: Database, guestID: String, code: String, queue: String, reprint: Bool,
                                  requestedBy: String, at: Timestamp) throws -> PrintJobRecord {
        try db.execute(sql: """
            INSERT INTO print_jobs (guest_id, code, queue, state, reprint, requested_by, created_at, updated_at)
            VALUES (?, kiosk_seal(?), ?, ?, ?, ?, ?, ?)
            """, arguments: [guestID, code, queue, PrintJobState.queued.rawValue, reprint, requestedBy, at.milliseconds, at.milliseconds])
        return try PrintJobRecord.fetch(db, id: db.lastInsertedRowID)!
    }
}
