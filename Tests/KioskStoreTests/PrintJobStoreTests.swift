import CheckInCore
import Foundation
import GRDB
import KioskTestSupport
import Testing
@testable import KioskStore

@Suite("Badge jobs in the station database")
struct PrintJobStoreTests {
    let t0 = Timestamp(milliseconds: 1_790_000_000_000)

    func enqueue(_ database: KioskDatabase, _ policy: PrintPolicy, walkIn: Bool = false, guest: String = "g-1") async throws -> PrintJobRecord? {
        try await database.write { db in
            try PrintJobStore.enqueueBadge(db, guestID: guest, code: "ABC1", walkIn: walkIn, policy: policy, queue: "badge", at: t0)
        }
    }

    @Test("each print policy decides whether an admission queues a badge", arguments: [
        (PrintPolicy.onAdmission, false, [true, true]),
        (.once, false, [true, false]),
        (.walkInsOnly, false, [false, false]),
        (.walkInsOnly, true, [true, true]),
        (.onRequest, true, [false, false]),
    ])
    func policies(_ sample: (PrintPolicy, Bool, [Bool])) async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        var queued: [Bool] = []
        for _ in 0..<2 { queued.append(try await enqueue(station.database, sample.0, walkIn: sample.1) != nil) }
        #expect(queued == sample.2)
    }

    @Test("print once counts badges printed or on their way, not failed or canceled ones")
    func printOnceCounts() async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        let database = station.database
        for state in PrintJobState.allCases {
            _ = try await database.write { db in try db.execute(sql: "DELETE FROM print_jobs") }
            let first = try #require(try await enqueue(database, .once))
            try await database.printJobs.updatePrintJob(first.id, PrintJobUpdate(state: state))
            let second = try await enqueue(database, .once)
            #expect((second == nil) == state.givesBadge, "after a \(state.rawValue) job")
        }
    }

    @Test("a badge job is committed with the check-in that asked for it, or not at all")
    func sameTransaction() async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        struct Refused: Error {}
        await #expect(throws: StoreError.self) {
            try await station.database.write { db in
                _ = try PrintJobStore.enqueueBadge(db, guestID: "g-1", code: "ABC1", walkIn: false, policy: .onAdmission, queue: "badge", at: t0)
                throw Refused()
            }
        }
        #expect(try await station.database.printJobs.unfinishedPrintJobs().isEmpty)
        let job = try #require(try await enqueue(station.database, .onAdmission))
        #expect(job.state == .queued && job.queue == "badge" && job.createdAt == t0 && !job.reprint)
        #expect(try await station.database.printJobs.unfinishedPrintJobs().map(\.id) == [job.id])
    }

    @Test("jobs set aside after waiting too long: the released ones never again, the answer applies to all")
    func setAsideAndAnswer() async throws {
        let station = try await Station()
        defer { station.directory.remove() }
        let database = station.database
        let old = try #require(try await enqueue(database, .onAdmission))
        let recent = try #require(try await database.write { db in
            try PrintJobStore.enqueueBadge(db, guestID: "g-2", code: "ABC2", walkIn: false, policy: .onAdmission, queue: "badge",
                                           at: t0.adding(milliseconds: 600_000))
        })
        let cutoff = t0.adding(milliseconds: 1)
        #expect(try await database.printJobs.setAsideWaitingPrintJobs(createdBefore: cutoff, reason: "too long").map(\.id) == [old.id])
        #expect(try await database.printJobs.printJob(id: recent.id)?.state == .queued)
        let released = try await database.printJobs.releaseSetAsidePrintJobs(toQueue: "spare", at: t0.adding(milliseconds: 700_000))
        #expect(released.map(\.id) == [old.id])
        #expect(released.first?.state == .queued && released.first?.queue == "spare" && released.first?.releasedAt != nil)
        #expect(try await database.printJobs.setAsideWaitingPrintJobs(createdBefore: cutoff, reason: "too long").isEmpty, "released: never set aside again")
        let held = try await database.printJobs.holdWaitingPrintJobs(reason: "Badge printer is not reachable")
        #expect(held.map(\.id) == [old.id, recent.id])
        #expect(try await database.printJobs.holdWaitingPrintJobs(reason: "Badge printer is not reachable").isEmpty, "unchanged rows are not rewritten")
        _ = try await database.printJobs.setAsideWaitingPrintJobs(createdBefore: t0.adding(milliseconds: 900_000), reason: "too long")
        let canceled = try await database.printJobs.cancelSetAsidePrintJobs(reason: "operator")
        #expect(canceled.map(\.id) == [recent.id])
        #expect(canceled.first?.state == .canceled && canceled.first?.finishedAt != nil)
    }

    @Test("migration 0006: a timed-out needs_attention job is followed again when it reached CUPS, queued again when not")
    func needsAttentionMigrates() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let v5 = try KioskDatabase.open(dataDirectory: directory.url, migrations: Array(Migration.embedded.prefix(5)))
        _ = try await v5.write { db in
            try db.execute(sql: """
                INSERT INTO print_jobs (guest_id, code, queue, state, cups_job_id, created_at, updated_at) VALUES
                    ('g-1', 'ABC1', 'badge', 'needs_attention', 12, 1, 1),
                    ('g-2', 'ABC2', 'badge', 'needs_attention', NULL, 2, 2),
                    ('g-3', 'ABC3', 'badge', 'printed', 13, 3, 3);
                """)
        }
        let database = try KioskDatabase.open(dataDirectory: directory.url)
        #expect(database.storage == .ready)
        let states = try database.read { db in try String.fetchAll(db, sql: "SELECT state FROM print_jobs ORDER BY id") }
        #expect(states == ["submitted", "queued", "printed"])
        #expect(try await database.printJobs.unfinishedPrintJobs().map(\.state) == [.submitted, .queued])
    }
}
