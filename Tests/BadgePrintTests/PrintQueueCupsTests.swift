import PrintTestSupport
import CheckInCore
import Foundation
import KioskStore
import KioskTestSupport
import PrintSpooler
import Testing

extension PrivateCupsTests {
    /// The station's print queue against a private cupsd and the IPP Everywhere simulator: what only
    /// real CUPS can show.
    @Suite("print queue against a private cupsd", .serialized, .hangGuard)
    struct PrintQueueCupsTests {
        func queue(_ station: PrintStation, timeout: Duration = .seconds(20)) -> PrintQueue {
            PrintQueue(database: station.database, primary: CupsOutput(queue: "badge", cups: CupsClient(server: station.rig.server)),
                       failover: nil, configuration: PrintQueueConfiguration(printTimeout: timeout))
        }

        func enqueue(_ station: PrintStation, guest index: Int) async throws -> PrintJobRecord {
            let guest = PrintStation.guests[index]
            return try #require(try await station.database.write { db in
                try PrintJobStore.enqueueBadge(db, guestID: guest.id, code: guest.code, walkIn: false, policy: .onAdmission, queue: "badge", at: .now())
            })
        }

        @Test("with the printer off, six badges queued 300 ms apart are held; when it is back each prints once, in order")
        func heldWhilePrinterIsOff() async throws {
            let station = try await PrintStation()
            defer { station.stop() }
            try station.rig.killPrinter("badge")
            let queue = queue(station)
            let running = RunningQueue(queue)
            var jobs: [PrintJobRecord] = []
            for index in 0..<6 {
                jobs.append(try await enqueue(station, guest: index % PrintStation.guests.count))
                queue.nudge()
                try await Task.sleep(for: .milliseconds(300))
            }
            try await eventually("all six held") {
                try await station.database.printJobs.unfinishedPrintJobs().filter { $0.state == .held }.count == 6
            }
            for job in try await station.database.printJobs.unfinishedPrintJobs() {
                #expect(job.reason == "Badge printer is not reachable: check its power and cable")
                #expect(job.cupsJobID == nil, "nothing was sent to a printer that is off")
            }
            #expect(await running.events.printerHealth.last?.fault?.kind == .printerUnreachable)

            try station.rig.restartPrinter("badge")
            try await eventually("all six printed", timeout: .seconds(90)) {
                try await station.database.printJobs.unfinishedPrintJobs().isEmpty
            }
            await running.kill()
            for job in jobs { #expect(try await station.database.printJobs.printJob(id: job.id)?.state == .printed) }
            // The printer's output: one file per badge, named by its job title, written in job order.
            let outputs = station.rig.outputs("badge")
            let names = outputs.sorted { modified($0) < modified($1) }.map { $0.deletingPathExtension().lastPathComponent }
            #expect(names == jobs.map { "Badge job \($0.id)" })
        }

        @Test("a printer-state-message like \"Filter failed\" with no reason is a fault; the next badge still prints and clears it")
        func messageOnlyFault() async throws {
            let station = try await PrintStation()
            defer { station.stop() }
            // A document the filters cannot read: cupsd stops the job and keeps the filter's words as
            // the printer's message, with printer-state-reasons "none".
            let broken = station.directory.appending("broken.pdf")
            try Data("%PDF-1.4\ngarbage\n".utf8).write(to: broken)
            try station.rig.cups("lp", ["-d", "badge", "-t", "broken", "-o", "document-format=application/pdf", broken.path])
            let cups = CupsClient(server: station.rig.server)
            // While the filter works, the message is its progress ("Attempting to reconstruct…");
            // the failure is what stays once the printer is no longer processing.
            try await eventually("cupsd reports the filter failure", timeout: .seconds(30)) {
                let status = try await cups.printerStatus(queue: "badge")
                return status.state != .processing && !status.message.isEmpty
            }
            let status = try await cups.printerStatus(queue: "badge")
            #expect(status.baseReasons.isEmpty, "no reason: only the message says something failed")
            let fault = try #require(status.health.fault, "\(status)")
            #expect(fault.kind == .printerError)
            #expect(fault.words.contains(status.message))
            #expect(!fault.blocksPrinting)
            #expect(status.operatorMessage?.contains(status.message) == true)
            try station.rig.cups("cancel", ["-a", "badge"])

            let running = RunningQueue(queue(station))
            let job = try await enqueue(station, guest: 0)
            running.queue.nudge()
            try await eventually("the badge printed", timeout: .seconds(30)) { try await station.database.printJobs.printJob(id: job.id)?.state == .printed }
            try await eventually("the fault cleared") { await running.queue.status().primary == .ready }
            await running.kill()
            #expect(await running.events.printerHealth.contains { $0.fault?.kind == .printerError })
        }

        @Test("a paused queue holds the badge with the reason, and it prints when the queue is resumed")
        func pausedThenResumed() async throws {
            let station = try await PrintStation()
            defer { station.stop() }
            try station.rig.cups("cupsdisable", ["-r", "Lunch break", "badge"])
            let running = RunningQueue(queue(station))
            let job = try await enqueue(station, guest: 1)
            running.queue.nudge()
            try await eventually("the badge held") { try await station.database.printJobs.printJob(id: job.id)?.state == .held }
            #expect(try await station.database.printJobs.printJob(id: job.id)?.reason == "Badge printing is paused (Lunch break): resume the queue (cupsenable badge)")
            try station.rig.cups("cupsenable", ["badge"])
            try await eventually("the badge printed", timeout: .seconds(30)) { try await station.database.printJobs.printJob(id: job.id)?.state == .printed }
            await running.kill()
            #expect(station.rig.outputs("badge").count == 1)
        }

        private func modified(_ url: URL) -> Date {
            (try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
        }
    }
}
