import PrintTestSupport
import BadgePrint
import CheckInCore
import Foundation
import GRDB
import KioskStore
import KioskTestSupport
import PrintSpooler
import Testing

/// A station database with guests, and print queues over it, for in-process tests.
struct QueueStation {
    let directory: TemporaryDirectory
    let database: KioskDatabase

    static let guestCount = 8

    init() async throws {
        directory = TemporaryDirectory("print-queue")
        database = try KioskDatabase.open(dataDirectory: directory.url)
        try await database.roster.saveAccessType(AccessType(id: "vip", name: "VIP"))
        for index in 1...Self.guestCount {
            try await database.roster.saveGuest(Guest(id: "g-\(index)", code: TicketCode(stored: "CODE-\(index)"), name: "Guest Nº \(index)",
                                               company: "ACME", accessTypeID: "vip"))
        }
    }

    /// Queues guest `index`'s badge as a check-in does (inside a write transaction).
    @discardableResult
    func enqueue(_ index: Int, policy: PrintPolicy = .onAdmission, walkIn: Bool = false, queue: String = "badge",
                 at: Timestamp = .now()) async throws -> PrintJobRecord? {
        try await database.write { db in
            try PrintJobStore.enqueueBadge(db, guestID: "g-\(index)", code: "CODE-\(index)", walkIn: walkIn, policy: policy, queue: queue, at: at)
        }
    }

    func queue(_ primary: any BadgeOutput, failover: (any BadgeOutput)? = nil, timeout: Duration = .seconds(5),
               staleAfter: Duration = .seconds(600), retryAfter: Duration = .milliseconds(300)) -> PrintQueue {
        PrintQueue(database: database, primary: primary, failover: failover, templates: BadgeTemplates(),
                   configuration: PrintQueueConfiguration(printTimeout: timeout, staleAfter: staleAfter, pollInterval: .milliseconds(20),
                                                          holdPollInterval: .milliseconds(100), idlePollInterval: .milliseconds(200),
                                                          retryAfter: retryAfter))
    }

    /// Every job, oldest first.
    func jobs() async throws -> [PrintJobRecord] {
        var jobs: [PrintJobRecord] = []
        let ids = try database.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM print_jobs ORDER BY id") }
        for id in ids { if let job = try await database.printJobs.printJob(id: id) { jobs.append(job) } }
        return jobs
    }

    /// Waits until `job` is in `state` (an issue is recorded after `timeout`).
    func waitUntil(_ job: PrintJobRecord, is state: PrintJobState, timeout: Duration = .seconds(30),
                   sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await eventually("job \(job.id) \(state.rawValue)", timeout: timeout, sourceLocation: sourceLocation) {
            try await database.printJobs.printJob(id: job.id)?.state == state
        }
    }

    func stop() {
        directory.remove()
    }
}
