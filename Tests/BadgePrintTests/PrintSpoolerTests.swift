import PrintTestSupport
import BadgePrint
import CheckInCore
import Foundation
import GRDB
import KioskStore
import KioskTestSupport
import PrintSpooler
import Testing

extension PrivateCupsTests {
    /// Real badges through a private cupsd and the IPP Everywhere simulator.
    @Suite("print spooler against a private cupsd", .serialized, .hangGuard)
    struct PrintSpoolerTests {
        @Test("a healthy printer prints the badge: name as text, QR decodes, media matches the template")
        func healthyPrinter() async throws {
            let station = try await PrintStation()
            defer { station.stop() }
            let outcome = try await station.spooler().print(try station.guest(0))
            #expect(outcome.state == .printed)
            #expect(outcome.reason == nil)
            let record = try #require(try await station.database.printJobs.printJob(id: outcome.jobID))
            #expect(record.state == .printed && record.cupsJobID == outcome.cupsJobID)
            let pdf = try #require(station.rig.outputs("badge").first)
            #expect(try PDFTools.text(pdf).contains("José Müller"))
            #expect(try PDFTools.qrCodes(pdf, in: station.directory) == ["CODE-1"])
            // Media matching the page: CUPS neither rotated nor shrank it, the printer got 4×3 in.
            let size = try #require(try PDFTools.pageSize(pdf))
            #expect(abs(size.width - 288) < 0.5 && abs(size.height - 216) < 0.5)
            let media = try String(contentsOf: pdf.deletingPathExtension().appendingPathExtension("media"), encoding: .utf8)
            #expect(media.contains("x-dimension=10160") && media.contains("y-dimension=7620"))
        }

        @Test("a paused queue: the badge needs attention at once, with the reason, and waits held for the station")
        func pausedQueue() async throws {
            let station = try await PrintStation()
            defer { station.stop() }
            try station.rig.cups("cupsdisable", ["-r", "Lunch break", "badge"])
            let outcome = try await station.spooler().print(try station.guest(1))
            #expect(outcome.state == .needsAttention)
            #expect(outcome.reason == "Badge printing is paused (Lunch break): resume the queue (cupsenable badge)")
            #expect(try await station.database.printJobs.printJob(id: outcome.jobID)?.state == .held)
            #expect(station.rig.outputs("badge").isEmpty)
        }

        @Test("a queue that rejects jobs fails the badge with a message saying so")
        func rejectingQueue() async throws {
            let station = try await PrintStation()
            defer { station.stop() }
            try station.rig.cups("cupsreject", ["badge"])
            let outcome = try await station.spooler().print(try station.guest(0))
            #expect(outcome.state == .failed)
            #expect(outcome.reason?.contains("not accepting jobs") == true)
        }

        @Test("a printer out of labels: the operator is told, and the job needs attention at the timeout")
        func outOfMedia() async throws {
            let station = try await PrintStation()
            defer { station.stop() }
            try station.rig.setMode("badge", "media-empty")
            let outcome = try await station.spooler(timeout: .seconds(4)).print(try station.guest(0))
            #expect(outcome.state == .needsAttention)
            #expect(outcome.reason?.contains("out of labels") == true)
        }

        @Test("a printer that is off: asked directly, it does not answer, so the badge is held without a CUPS job")
        func offlineAtSubmit() async throws {
            let station = try await PrintStation()
            defer { station.stop() }
            try station.rig.killPrinter("badge")
            let started = ContinuousClock.now
            let outcome = try await station.spooler(timeout: .seconds(20)).print(try station.guest(0))
            #expect(outcome.state == .needsAttention)
            #expect(outcome.reason == "Badge printer is not reachable: check its power and cable")
            #expect(ContinuousClock.now - started < .seconds(5), "no wait for the timeout: cupsd would have said nothing")
            let record = try #require(try await station.database.printJobs.printJob(id: outcome.jobID))
            #expect(record.state == .held && record.cupsJobID == nil)
        }

        @Test("a printer killed mid-job is never reported printed")
        func killedMidJob() async throws {
            let station = try await PrintStation()
            defer { station.stop() }
            try station.rig.setMode("badge", "hang")
            let spooler = station.spooler(timeout: .seconds(30))
            let guest = try station.guest(0)
            let job = Task { try await spooler.print(guest) }
            for await update in spooler.updates where update.state == .printing { break }
            // Let the printer's own job start before it dies.
            try await Task.sleep(for: .seconds(1))
            try station.rig.killPrinter("badge")
            let outcome = try await job.value
            await spooler.shutdown()
            #expect(outcome.state != .printed)
            // The printer had the badge when it died: it may have come out, never "printed".
            #expect([.unconfirmed, .needsAttention, .mayHavePrinted].contains(outcome.state))
            #expect(station.rig.outputs("badge").isEmpty)
        }

        @Test("a job failing on the first queue fails over to the second")
        func failover() async throws {
            let station = try await PrintStation(queues: ["badge", "spare"])
            defer { station.stop() }
            try station.rig.setMode("badge", "fail")
            let outcome = try await station.spooler(failover: "spare").print(try station.guest(2))
            #expect(outcome.state == .printed, "\(outcome.reason ?? "")")
            #expect(outcome.queue == "spare")
            #expect(station.rig.outputs("spare").count == 1)
            #expect(try await station.database.printJobs.printJob(id: outcome.jobID)?.queue == "spare")
            // The printers' own job histories, which decide when CUPS says "completed" for a job the
            // printer aborted (CUPS 2.4's ipp backend does when the abort is quicker than its monitor).
            let ticket = BadgeTicket(printJobID: outcome.jobID, media: "")
            #expect(await CupsOutput(queue: "badge", cups: CupsClient(server: station.rig.server)).printerAnswer(for: ticket) == .ended(.aborted))
            #expect(await CupsOutput(queue: "spare", cups: CupsClient(server: station.rig.server)).printerAnswer(for: ticket) == .ended(.completed))
        }

        @Test("print once: a second badge needs a reprint, which is logged with the operator")
        func printOnce() async throws {
            let station = try await PrintStation()
            defer { station.stop() }
            let spooler = station.spooler(policy: .once)
            let guest = try station.guest(0)
            let first = try await spooler.admitted(guest)
            #expect(first?.state == .printed, "\(String(describing: first))")
            #expect(try await spooler.admitted(guest) == nil)
            await #expect(throws: PrintError.self) { try await spooler.print(guest) }
            let reprint = try await spooler.reprintLast(requestedBy: "alex")
            #expect(reprint.state == .printed)
            let logged = try station.database.read { db in
                try String.fetchAll(db, sql: "SELECT operator || ' ' || action FROM audit_log WHERE action = 'reprint'")
            }
            #expect(logged == ["alex reprint"])
            #expect(station.rig.outputs("badge").count == 2)
            let onRequest = station.spooler(policy: .onRequest)
            #expect(try await onRequest.admitted(try station.guest(1)) == nil)
        }

        @Test("a job CUPS had when the station stopped is followed to its end, not sent again; one CUPS forgot is unconfirmed")
        func restart() async throws {
            let station = try await PrintStation()
            defer { station.stop() }
            let db = station.database
            let cups = CupsClient(server: station.rig.server)
            let pdf = try BadgeRenderer().pdf(BadgeContent(guest: try station.guest(1).guest, accessTypeName: "VIP"), template: BadgeTemplate())
            let submitted = try await db.printJobs.createPrintJob(guestID: "g-2", code: "CODE-2", queue: "badge", reprint: false, requestedBy: "")
            let cupsJob = try await cups.submit(pdf: pdf, queue: "badge", title: BadgeTicket(printJobID: submitted.id, media: "").title,
                                                media: "custom_4x3in_4x3in")
            try await db.printJobs.updatePrintJob(submitted.id, PrintJobUpdate(state: .printing, cupsJobID: cupsJob, submittedAt: .now()))
            let lost = try await db.printJobs.createPrintJob(guestID: "g-3", code: "CODE-3", queue: "badge", reprint: false, requestedBy: "")
            try await db.printJobs.updatePrintJob(lost.id, PrintJobUpdate(state: .submitted, cupsJobID: 9999, submittedAt: .now()))

            let queue = PrintQueue(database: db, primary: CupsOutput(queue: "badge", cups: cups), failover: nil,
                                   configuration: PrintQueueConfiguration(printTimeout: .seconds(30)))
            let running = RunningQueue(queue)
            try await eventually("both jobs settled", timeout: .seconds(60)) { try await db.printJobs.unfinishedPrintJobs().isEmpty }
            await running.kill()
            #expect(try await db.printJobs.printJob(id: submitted.id)?.state == .printed)
            #expect(try await db.printJobs.printJob(id: lost.id)?.state == .unconfirmed)
            #expect(station.rig.outputs("badge").count == 1)
        }
    }
}
