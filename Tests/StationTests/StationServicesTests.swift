import BadgePrint
import CheckInCore
import Foundation
import KioskStore
import KioskTestSupport
import PrintSpooler
import PrintTestSupport
import Synchronization
import Testing
@testable import Station

/// The station's services in process: the real store and the real print queue over a scripted
/// printer, the flow and the print news as `kiosk run` composes them.
///
/// Each station's tasks run on a thread of their own (``DedicatedThreadExecutor``), not behind
/// every other test's work in the cooperative pool: on a loaded 2-core CI machine, a print that
/// needs a few dozen actor hops once waited there longer than the test's limit.
@Suite(.hangGuard)
struct StationServicesTests {
    /// A station with a roster of eight, running its flow, print queue and print news.
    final class Running: Sendable {
        let directory: TemporaryDirectory
        let database: KioskDatabase
        let runtime: StationRuntime
        let printer: ScriptedPrinter
        let log = EventLog()
        let tasks: [Task<Void, any Error>]
        let executor = DedicatedThreadExecutor(name: "station-services")

        init(policy: PrintPolicy = .onAdmission, printer: ScriptedPrinter = ScriptedPrinter(), failover: ScriptedPrinter? = nil,
             directory: TemporaryDirectory = TemporaryDirectory("station-services"), reentry: Bool = false) async throws {
            self.directory = directory
            self.printer = printer
            database = try KioskDatabase.open(dataDirectory: directory.url)
            try await database.roster.saveAccessType(AccessType(id: "general", name: "General", reentry: reentry))
            for index in 1...8 {
                try await database.roster.saveGuest(Guest(id: "g-\(index)", code: TicketCode(stored: "CODE-\(index)"), name: "Guest \(index)",
                                                   accessTypeID: "general"))
            }
            let queue = PrintQueue(
                database: database, primary: ScriptedOutput("badge", printer: printer), failover: failover.map { ScriptedOutput("spare", printer: $0) },
                configuration: PrintQueueConfiguration(printTimeout: .seconds(2), pollInterval: .milliseconds(20), holdPollInterval: .milliseconds(100),
                                                       idlePollInterval: .milliseconds(200), retryAfter: .milliseconds(300)))
            let printing = QueuePrinting(queue: queue, database: database, name: "cups:badge", queueName: "badge")
            runtime = StationRuntime(database: database, printing: printing, sync: nil, badgeRequest: BadgeRequest(policy: policy, queue: "badge"),
                                     health: StationHealth(printer: PrinterCondition(state: .ready, name: "cups:badge")))
            let runtime = self.runtime, log = self.log
            let executor = self.executor
            tasks = [
                Task(executorPreference: executor) { for await event in runtime.events { log.append(event) } },
                Task(executorPreference: executor) { await runtime.run() },
                Task(executorPreference: executor) { try await printing.run() },
                Task(executorPreference: executor) { try await PrintNewsService(printing: printing, runtime: runtime).run() },
            ]
        }

        func present(_ code: String) -> ContinuousClock.Instant {
            let now = ContinuousClock.now
            runtime.submit(Presentation(.code(code), source: .scanner, at: .now()))
            return now
        }

        var results: [(at: ContinuousClock.Instant, feedback: Feedback)] {
            log.all.compactMap { if case .result(let feedback) = $0.event { ($0.at, feedback) } else { nil } }
        }

        var badges: [BadgeProgress] {
            log.all.compactMap { if case .badge(let progress) = $0.event { progress } else { nil } }
        }

        func stop() async {
            for task in tasks { task.cancel() }
            for task in tasks { _ = await task.result }
            executor.stop()
        }

        func waitFor(_ what: String, timeout: Duration = .seconds(120), _ condition: () async throws -> Bool) async throws {
            let deadline = ContinuousClock.now + timeout
            while try await !condition() {
                guard ContinuousClock.now < deadline else {
                    Issue.record("timed out waiting for \(what)")
                    throw CancellationError()
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// Events with the moment they arrived.
    final class EventLog: Sendable {
        private let events = Mutex<[(at: ContinuousClock.Instant, event: StationEvent)]>([])
        func append(_ event: StationEvent) { events.withLock { $0.append((.now, event)) } }
        var all: [(at: ContinuousClock.Instant, event: StationEvent)] { events.withLock { $0 } }
    }

    @Test func everyAttendeeIsAnsweredWhileThePrinterIsDownAndTheBadgesFollowInOrderWhenItIsBack() async throws {
        let printer = ScriptedPrinter()
        await printer.set(.down)
        let station = try await Running(printer: printer)
        defer { station.directory.remove() }
        var presented: [ContinuousClock.Instant] = []
        for index in 1...6 {
            presented.append(station.present("CODE-\(index)"))
            try await Task.sleep(for: .milliseconds(50))
        }
        try await station.waitFor("six results") { station.results.count == 6 }
        let results = station.results
        #expect(results.allSatisfy { $0.feedback.outcome?.decision == .admitted && $0.feedback.outcome?.badgeJobID != nil })
        #expect(station.badges.allSatisfy { $0.stage != .printed }, "nothing printed while the printer is down")
        // The answers did not wait for the printer: all six came while it was still down (its
        // timing is measured by `kiosk bench door`, and through CUPS by StationCupsTests).
        #expect(results.map(\.at) == results.map(\.at).sorted())
        #expect(presented.count == 6)
        try await station.waitFor("the badges held") {
            try await station.database.printJobs.unfinishedPrintJobs().allSatisfy { $0.state == .held }
        }
        await printer.set(.up)
        try await station.waitFor("six badges printed") { await printer.printed.count == 6 }
        let jobIDs = results.compactMap { $0.feedback.outcome?.badgeJobID }
        #expect(await printer.printed == jobIDs, "printed in the order the attendees came")
        try await station.waitFor("printed reported") { station.badges.filter { $0.stage == .printed }.count == 6 }
        await station.stop()
    }

    @Test func printOnceGivesAReEnteringGuestNoSecondBadge() async throws {
        let station = try await Running(policy: .once, reentry: true)
        defer { station.directory.remove() }
        _ = station.present("CODE-1")
        try await station.waitFor("first badge") { await station.printer.printed.count == 1 }
        // Back in later (re-entry allowed, beyond the tolerance window: a new admission).
        station.runtime.submit(Presentation(.code("CODE-1"), source: .typed, at: Timestamp.now().adding(milliseconds: 120_000)))
        try await station.waitFor("second result") { station.results.count == 2 }
        #expect(station.results.last?.feedback.outcome?.decision == .admitted)
        #expect(station.results.last?.feedback.outcome?.badgeJobID == nil)
        await station.stop()
    }

    @Test func aBadgeThePrinterRefusesGoesToTheSecondPrinter() async throws {
        let first = ScriptedPrinter(), second = ScriptedPrinter()
        await first.set(.fail)
        let station = try await Running(printer: first, failover: second)
        defer { station.directory.remove() }
        _ = station.present("CODE-3")
        try await station.waitFor("printed on the spare") { await second.printed.count == 1 }
        #expect(await first.printed.isEmpty)
        await station.stop()
    }

    @Test func badgesQueuedBeforeARestartArePrintedOnceAfterIt() async throws {
        let printer = ScriptedPrinter()
        await printer.set(.down)
        let directory = TemporaryDirectory("station-services-restart")
        defer { directory.remove() }
        let before = try await Running(printer: printer, directory: directory)
        for index in 1...3 { _ = before.present("CODE-\(index)") }
        try await before.waitFor("three results") { before.results.count == 3 }
        await before.stop()   // the station is killed with three badges waiting
        await printer.set(.up)
        let after = try await Running(printer: printer, directory: directory)
        try await after.waitFor("the three badges") { await printer.printed.count == 3 }
        try await Task.sleep(for: .milliseconds(300))
        #expect(await printer.printed.count == 3, "each exactly once")
        await after.stop()
    }
}
