import CheckInCore
import GRDB

/// One badge print job as the station's database keeps it (table `print_jobs`).
public struct PrintJobRecord: Sendable, Hashable, FetchableRecord {
    public var id: Int64
    public var guestID: String
    /// The guest's ticket code. It stays in the database: never put it in a printer job title or a
    /// log line (ticket codes admit people, and CUPS shows job titles to every local user).
    public var code: String
    /// The printer queue the job is (or will be) sent to.
    public var queue: String
    public var state: PrintJobState
    /// Why the job is held, unconfirmed or failed, in the operator's words.
    public var reason: String?
    /// The printer queue's id of the job while it is out (CUPS job id).
    public var cupsJobID: Int?
    /// The first printer fault seen while the job was out (a completed job with a fault is not "printed").
    public var faultSeen: String?
    public var reprint: Bool
    public var requestedBy: String
    public var createdAt: Timestamp
    public var submittedAt: Timestamp?
    public var finishedAt: Timestamp?
    /// When an operator said "print anyway" for a job that waited too long.
    public var releasedAt: Timestamp?

    /// The queue is not done with the job: what a restart resumes.
    public var isOpen: Bool { !state.isFinal }

    /// A job's columns, its code opened (0008_encrypted_guest_data.sql).
    static let columns = "*, kiosk_open(code) AS plain_code"

    /// A row of `print_jobs` read with ``columns`` (its code opened).
    public init(row: Row) {
        id = row["id"]
        guestID = row["guest_id"]
        code = row["plain_code"]
        queue = row["queue"]
        cupsJobID = row["cups_job_id"]
        state = PrintJobState(stored: row["state"], reachedPrinter: cupsJobID != nil)
        reason = row["reason"]
        faultSeen = row["fault_seen"]
        reprint = row["reprint"]
        requestedBy = row["requested_by"]
        createdAt = Timestamp(milliseconds: row["created_at"])
        submittedAt = (row["submitted_at"] as Int64?).map(Timestamp.init(milliseconds:))
        finishedAt = (row["finished_at"] as Int64?).map(Timestamp.init(milliseconds:))
        releasedAt = row.hasColumn("released_at") ? (row["released_at"] as Int64?).map(Timestamp.init(milliseconds:)) : nil
    }

    static func fetch(_ db: Database, id: Int64) throws -> PrintJobRecord? {
        try fetchOne(db, sql: "SELECT \(columns) FROM print_jobs WHERE id = ?", arguments: [id])
    }
}

/// A change to a print job's row; `nil` fields are left as they are.
public struct PrintJobUpdate: Sendable {
    public var state: PrintJobState
    public var reason: String?
    public var cupsJobID: Int?
    public var faultSeen: String?
    public var queue: String?
    public var submittedAt: Timestamp?
    public var finishedAt: Timestamp?
    /// A new attempt starts: the previous printer job id and the faults seen while it was out no
    /// longer say anything about this badge.
    public var newAttempt: Bool

    public init(state: PrintJobState, reason: String? = nil, cupsJobID: Int? = nil, faultSeen: String? = nil,
                queue: String? = nil, submittedAt: Timestamp? = nil, finishedAt: Timestamp? = nil, newAttempt: Bool = false) {
        self.state = state
        self.reason = reason
        self.cupsJobID = cupsJobID
        self.faultSeen = faultSeen
        self.queue = queue
        self.submittedAt = submittedAt
        self.finishedAt = finishedAt
        self.newAttempt = newAttempt
    }
}

extension KioskDatabase {
    /// Badge print jobs.
    public var printJobs: PrintJobStore { PrintJobStore(database: self) }
}

/// Badge print jobs: every state change is committed before anyone is told about it.
public struct PrintJobStore: StoreRepository {
    let database: KioskDatabase

    /// Applies a state change to a job and returns the row as stored.
    @discardableResult
    public func updatePrintJob(_ id: Int64, _ update: PrintJobUpdate, at: Timestamp = .now()) async throws(StoreError) -> PrintJobRecord? {
        try requireUsable()
        let deviceID = database.deviceID
        return try await wrap {
            try await writer.write { db in
                // Only a job turning printed needs its state before (one column, its code left sealed).
                let turnsPrinted = try update.state == .printed
                    && String.fetchOne(db, sql: "SELECT state FROM print_jobs WHERE id = ?", arguments: [id]) != PrintJobState.printed.rawValue
                if update.newAttempt {
                    try db.execute(sql: "UPDATE print_jobs SET cups_job_id = NULL, fault_seen = NULL, submitted_at = NULL WHERE id = ?", arguments: [id])
                }
                try db.execute(sql: """
                    UPDATE print_jobs SET state = ?, reason = ?,
                        cups_job_id = COALESCE(?, cups_job_id), fault_seen = COALESCE(fault_seen, ?),
                        queue = COALESCE(?, queue), submitted_at = COALESCE(?, submitted_at),
                        finished_at = COALESCE(?, finished_at), updated_at = ?
                    WHERE id = ?
                    """, arguments: [update.state.rawValue, update.reason, update.cupsJobID, update.faultSeen, update.queue,
                                     update.submittedAt?.milliseconds, update.finishedAt?.milliseconds, at.milliseconds, id])
                let job = try PrintJobRecord.fetch(db, id: id)
                if turnsPrinted, let job { try Self.recordPrinted(db, job: job, deviceID: deviceID, at: at) }
                return job
            }
        }
    }

    /// A destination that keeps print logs (pretix) learns of a printed badge, from the
    /// transaction that records it printed.
    static func recordPrinted(_ db: Database, job: PrintJobRecord, deviceID: String, at: Timestamp) throws {
        guard try KioskDatabase.currentDestination(db)?.isPretix == true else { return }
        let guest = try OpenedGuestRecord.fetchGuest(db, id: job.guestID)
        try KioskDatabase.enqueue(db, .badgePrinted(PrintedBadge(deviceID: deviceID, jobID: job.id, guestID: job.guestID,
                                                                 shopTicketID: guest?.facts.shopTicketID, printedAt: at)))
    }

    /// One job as stored now.
    public func printJob(id: Int64) async throws(StoreError) -> PrintJobRecord? {
        try await wrap { try await writer.read { db in try PrintJobRecord.fetch(db, id: id) } }
    }

    /// Jobs the queue is not done with (every state but the final ones), oldest first.
    public func unfinishedPrintJobs() async throws(StoreError) -> [PrintJobRecord] {
        try await wrap {
            try await writer.read { db in
                try PrintJobRecord.fetchAll(db, sql: """
                    SELECT \(PrintJobRecord.columns) FROM print_jobs
                    WHERE state IN ('queued', 'held', 'submitted', 'printing', \(PrintJobState.waitingForOperatorSQL), 'needs_attention')
                    ORDER BY id
                    """)
            }
        }
    }

    /// A guest's jobs, newest first.
    public func jobs(guestID: String) async throws(StoreError) -> [PrintJobRecord] {
        try await wrap {
            try await writer.read { db in
                try PrintJobRecord.fetchAll(db, sql: "SELECT \(PrintJobRecord.columns) FROM print_jobs WHERE guest_id = ? ORDER BY id DESC",
                                            arguments: [guestID])
            }
        }
    }

    /// The station's most recent job (for "reprint last badge").
    public func lastPrintJob() async throws(StoreError) -> PrintJobRecord? {
        try await wrap { try await writer.read { db in try PrintJobRecord.fetchOne(db, sql: "SELECT \(PrintJobRecord.columns) FROM print_jobs ORDER BY id DESC LIMIT 1") } }
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
}
