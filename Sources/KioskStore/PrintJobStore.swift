import CheckInCore
import GRDB

/// One badge print job as the station's database keeps it (table `print_jobs`).
public struct PrintJobRecord: Sendable, Hashable {
    public var id: Int64
    public var guestID: String
    public var code: String
    public var queue: String
    /// queued | submitted | printing | printed | unconfirmed | failed | needs_attention | canceled
    public var state: String
    public var reason: String?
    public var cupsJobID: Int?
    /// The first printer fault seen while the job was out (a completed job with a fault is not "printed").
    public var faultSeen: String?
    public var reprint: Bool
    public var requestedBy: String
    public var createdAt: Timestamp
    public var submittedAt: Timestamp?
    public var finishedAt: Timestamp?

    /// States in which the job is still out and must be followed (or resumed after a restart).
    public static let openStates: Set<String> = ["queued", "submitted", "printing"]
    public var isOpen: Bool { Self.openStates.contains(state) }

    init(_ row: Row) {
        id = row["id"]
        guestID = row["guest_id"]
        code = row["code"]
        queue = row["queue"]
        state = row["state"]
        reason = row["reason"]
        cupsJobID = row["cups_job_id"]
        faultSeen = row["fault_seen"]
        reprint = row["reprint"]
        requestedBy = row["requested_by"]
        createdAt = Timestamp(milliseconds: row["created_at"])
        submittedAt = (row["submitted_at"] as Int64?).map(Timestamp.init(milliseconds:))
        finishedAt = (row["finished_at"] as Int64?).map(Timestamp.init(milliseconds:))
    }
}

/// A change to a print job's row; `nil` fields are left as they are.
public struct PrintJobUpdate: Sendable {
    public var state: String
    public var reason: String?
    public var cupsJobID: Int?
    public var faultSeen: String?
    public var queue: String?
    public var submittedAt: Timestamp?
    public var finishedAt: Timestamp?

    public init(state: String, reason: String? = nil, cupsJobID: Int? = nil, faultSeen: String? = nil,
                queue: String? = nil, submittedAt: Timestamp? = nil, finishedAt: Timestamp? = nil) {
        self.state = state
        self.reason = reason
        self.cupsJobID = cupsJobID
        self.faultSeen = faultSeen
        self.queue = queue
        self.submittedAt = submittedAt
        self.finishedAt = finishedAt
    }
}

/// Badge print jobs: every state change is committed before the spooler reports it.
extension KioskDatabase {
    /// Records a new job in state `queued`; a reprint is also written to the audit log with
    /// the operator who asked for it.
    public func createPrintJob(guestID: String, code: String, queue: String, reprint: Bool,
                               requestedBy: String, at: Timestamp = .now()) async throws(StoreError) -> PrintJobRecord {
        try requireUsable()
        let deviceID = self.deviceID
        let (station, operatorName) = try identity(station: nil, operatorName: requestedBy.isEmpty ? nil : requestedBy)
        return try await wrap {
            try await writer.write { db in
                try db.execute(sql: """
                    INSERT INTO print_jobs (guest_id, code, queue, state, reprint, requested_by, created_at, updated_at)
                    VALUES (?, ?, ?, 'queued', ?, ?, ?, ?)
                    """, arguments: [guestID, code, queue, reprint, operatorName, at.milliseconds, at.milliseconds])
                let id = db.lastInsertedRowID
                if reprint {
                    try db.execute(sql: """
                        INSERT INTO audit_log (at, device_id, station, operator, source, action, code, guest_id, decision, detail)
                        VALUES (?, ?, ?, ?, 'typed', 'reprint', ?, ?, NULL, ?)
                        """, arguments: [at.milliseconds, deviceID, station, operatorName, code, guestID, "print job \(id)"])
                }
                return try Row.fetchOne(db, sql: "SELECT * FROM print_jobs WHERE id = ?", arguments: [id]).map(PrintJobRecord.init)!
            }
        }
    }

    /// Applies a state change to a job and returns the row as stored.
    @discardableResult
    public func updatePrintJob(_ id: Int64, _ update: PrintJobUpdate, at: Timestamp = .now()) async throws(StoreError) -> PrintJobRecord? {
        try requireUsable()
        return try await wrap {
            try await writer.write { db in
                try db.execute(sql: """
                    UPDATE print_jobs SET state = ?, reason = ?,
                        cups_job_id = COALESCE(?, cups_job_id), fault_seen = COALESCE(fault_seen, ?),
                        queue = COALESCE(?, queue), submitted_at = COALESCE(?, submitted_at),
                        finished_at = COALESCE(?, finished_at), updated_at = ?
                    WHERE id = ?
                    """, arguments: [update.state, update.reason, update.cupsJobID, update.faultSeen, update.queue,
                                     update.submittedAt?.milliseconds, update.finishedAt?.milliseconds, at.milliseconds, id])
                return try Row.fetchOne(db, sql: "SELECT * FROM print_jobs WHERE id = ?", arguments: [id]).map(PrintJobRecord.init)
            }
        }
    }

    public func printJob(id: Int64) throws(StoreError) -> PrintJobRecord? {
        try wrap { try writer.read { db in try Row.fetchOne(db, sql: "SELECT * FROM print_jobs WHERE id = ?", arguments: [id]).map(PrintJobRecord.init) } }
    }

    /// Jobs still out (queued, submitted, printing), oldest first: what a restart must resume.
    public func openPrintJobs() throws(StoreError) -> [PrintJobRecord] {
        try wrap {
            try writer.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM print_jobs WHERE state IN ('queued', 'submitted', 'printing') ORDER BY id")
                    .map(PrintJobRecord.init)
            }
        }
    }

    /// Jobs in any of `states`, oldest first.
    public func printJobs(inStates states: [String]) throws(StoreError) -> [PrintJobRecord] {
        try wrap {
            try writer.read { db in
                let marks = states.map { _ in "?" }.joined(separator: ", ")
                return try Row.fetchAll(db, sql: "SELECT * FROM print_jobs WHERE state IN (\(marks)) ORDER BY id", arguments: StatementArguments(states))
                    .map(PrintJobRecord.init)
            }
        }
    }

    /// A printing setting (policy, queues, timeout), kept in `settings` under `print_<name>`.
    public func printSetting(_ name: String) throws(StoreError) -> String? {
        try wrap { try writer.read { db in try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: ["print_" + name]) } }
    }

    public func setPrintSetting(_ name: String, _ value: String?) async throws(StoreError) {
        try requireUsable()
        try await wrap {
            try await writer.write { db in
                if let value {
                    try db.execute(sql: "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", arguments: ["print_" + name, value])
                } else {
                    try db.execute(sql: "DELETE FROM settings WHERE key = ?", arguments: ["print_" + name])
                }
            }
        }
    }

    /// A guest's jobs, newest first.
    public func printJobs(guestID: String) throws(StoreError) -> [PrintJobRecord] {
        try wrap {
            try writer.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM print_jobs WHERE guest_id = ? ORDER BY id DESC", arguments: [guestID])
                    .map(PrintJobRecord.init)
            }
        }
    }

    /// The station's most recent job (for "reprint last badge").
    public func lastPrintJob() throws(StoreError) -> PrintJobRecord? {
        try wrap { try writer.read { db in try Row.fetchOne(db, sql: "SELECT * FROM print_jobs ORDER BY id DESC LIMIT 1").map(PrintJobRecord.init) } }
    }
}
