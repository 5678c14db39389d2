import PrintTestSupport
import CheckInCore
import Foundation
import GRDB
import KioskStore
import KioskTestSupport
import PrintSpooler
import Testing

/// The station's print queue in process: the real store, scripted printers.
// One test at a time, and three minutes: alone the suite takes seconds, but in the full run other
// suites' synchronous tests can hold both cooperative threads for a minute.
@Suite("print queue with scripted printers", .serialized, .hangGuard)
struct PrintQueueTests {
    @Test("jobs print in the order they were queued, one at a time")
    func inOrder() async throws {
        let station = try await QueueStation()
        defer { station.stop() }
        let printer = ScriptedPrinter()
        var ids: [Int64] = []
        for index in [3, 1, 2, 5, 4] { ids.append(try #require(try await station.enqueue(index)).id) }
        let running = RunningQueue(station.queue(ScriptedOutput("badge", printer: printer)))
        try await eventually("every job printed") { try await station.jobs().allSatisfy { $0.state == .printed } }
        await running.kill()
        #expect(await printer.printed == ids)
        #expect(await printer.mostAtOnce == 1)
        let changes = await running.events.jobChanges.filter { $0.state == .printed }
        #expect(changes.map(\.jobID) == ids)
        #expect(changes.allSatisfy { $0.attendeeWords == "Please take your badge" })
    }

    @Test("a printer that is down holds the jobs, and prints them all in order when it is back")
    func heldUntilBack() async throws {
        let station = try await QueueStation()
        defer { station.stop() }
        let printer = ScriptedPrinter()
        await printer.set(.down)
        let running = RunningQueue(station.queue(ScriptedOutput("badge", printer: printer)))
        var ids: [Int64] = []
        for index in 1...4 {
            ids.append(try #require(try await station.enqueue(index)).id)
            running.queue.nudge()
        }
        try await eventually("every job held") { try await station.jobs().allSatisfy { $0.state == .held } }
        let held = try await station.jobs()
        #expect(held.allSatisfy { $0.reason == "Badge printer is not reachable: check its power and cable" })
        #expect(await running.events.printerHealth.last?.fault?.kind == .printerUnreachable)
        #expect(await running.events.jobChanges.last?.attendeeWords == "Please collect your badge at the desk")
        #expect(await printer.printed.isEmpty)

        await printer.set(.up)
        try await eventually("every job printed") { try await station.jobs().allSatisfy { $0.state == .printed } }
        await running.kill()
        #expect(await printer.printed == ids)
        #expect(await running.events.printerHealth.last == .ready)
    }

    @Test("a job the first printer aborts, or says completed while the printer itself aborted it, prints on the ready second printer",
          arguments: [ScriptedPrinter.Mode.fail, .lieCompleted])
    func failoverOnAbort(mode: ScriptedPrinter.Mode) async throws {
        let station = try await QueueStation()
        defer { station.stop() }
        let first = ScriptedPrinter(), second = ScriptedPrinter()
        await first.set(mode)
        let job = try #require(try await station.enqueue(1))
        let running = RunningQueue(station.queue(ScriptedOutput("badge", printer: first), failover: ScriptedOutput("spare", printer: second)))
        try await station.waitUntil(job, is: .printed)
        await running.kill()
        #expect(try await station.database.printJobs.printJob(id: job.id)?.queue == "spare")
        #expect(await second.printed == [job.id])
        #expect(await first.printed.isEmpty)
    }

    @Test("a job the print server never started is canceled at the timeout and printed on the second printer; with neither ready it is held")
    func failoverOnTimeout() async throws {
        let station = try await QueueStation()
        defer { station.stop() }
        let first = ScriptedPrinter(), second = ScriptedPrinter()
        await first.set(.stuck)
        await second.set(.down)
        // The first printer rests past the test once it timed out: a loaded machine must not see
        // the rest end and the job (or the next one) go back to it.
        let queue = station.queue(ScriptedOutput("badge", printer: first), failover: ScriptedOutput("spare", printer: second),
                                  timeout: .milliseconds(300), retryAfter: .seconds(120))
        let job = try #require(try await station.enqueue(1))
        let running = RunningQueue(queue)
        try await station.waitUntil(job, is: .held)
        #expect(await first.canceled == [job.id], "the timed-out try was canceled before anything else")
        await second.set(.up)
        try await station.waitUntil(job, is: .printed)
        await running.kill()
        #expect(try await station.database.printJobs.printJob(id: job.id)?.queue == "spare")
        #expect(await second.printed == [job.id])
        #expect(await first.printed.isEmpty)
    }

    @Test("a job the printer took and never finished is canceled at the timeout and waits as a possible duplicate; the other printer prints it only on the operator's word")
    func possibleDuplicateAfterTimeout() async throws {
        let station = try await QueueStation()
        defer { station.stop() }
        let first = ScriptedPrinter(), second = ScriptedPrinter()
        await first.set(.hang)
        // The first printer rests past the test once it timed out: a loaded machine must not see
        // the rest end and the job (or the next one) go back to it.
        let queue = station.queue(ScriptedOutput("badge", printer: first), failover: ScriptedOutput("spare", printer: second),
                                  timeout: .milliseconds(300), retryAfter: .seconds(120))
        let job = try #require(try await station.enqueue(1))
        let running = RunningQueue(queue)
        try await station.waitUntil(job, is: .mayHavePrinted)
        #expect(await first.canceled == [job.id])
        let reason = try #require(try await station.database.printJobs.printJob(id: job.id)?.reason)
        #expect(reason.contains("May already have printed on badge") && reason.contains("Check the printer's tray"), "\(reason)")
        try await eventually("the operator asked") { await running.events.questions.last??.possibleDuplicates == [job.id] }
        let question = try #require(await running.events.questions.last ?? nil)
        #expect(question.text == "Print 1 waiting badge? It may already have printed: check the printer's tray first")
        #expect(await running.events.jobChanges.last { $0.jobID == job.id }?.attendeeWords == "Please collect your badge at the desk")
        // The door goes on meanwhile: the next badge prints on the other printer (the first rests).
        let next = try #require(try await station.enqueue(2))
        queue.nudge()
        try await station.waitUntil(next, is: .printed)
        #expect(await second.printed == [next.id], "the possible duplicate was not printed by itself")

        try await queue.answer(.printOnOtherPrinter)
        try await station.waitUntil(job, is: .printed)
        await running.kill()
        #expect(await second.printed == [next.id, job.id])
        #expect(await first.printed.isEmpty)
    }

    @Test("a badge waiting in a printer out of labels stays there past the timeout, the badges behind it wait held, and it is recorded printed once the roll is in")
    func waitsInThePrinterForLabels() async throws {
        let station = try await QueueStation()
        defer { station.stop() }
        // A badge takes most of the timeout to come out: a roll put in late in a round of waiting
        // must still leave the printer the whole timeout (it was taken back as a possible duplicate).
        let printer = ScriptedPrinter(printTime: .milliseconds(700))
        await printer.set(.outOfLabels)
        let queue = station.queue(ScriptedOutput("badge", printer: printer), timeout: .seconds(1))
        let running = RunningQueue(queue)
        let first = try #require(try await station.enqueue(1))
        queue.nudge()
        try await eventually("the badge waits in the printer") {
            try await station.database.printJobs.printJob(id: first.id)?.reason?.hasPrefix("Waiting in the printer: Badge printer is out of labels") == true
        }
        let second = try #require(try await station.enqueue(2))
        queue.nudge()
        try await station.waitUntil(second, is: .held)
        #expect(try await station.database.printJobs.printJob(id: second.id)?.reason == "Badge printer is out of labels: load a new roll")
        // Timeouts later, nothing was canceled or given up on.
        try await Task.sleep(for: .milliseconds(2_600))
        #expect(await printer.canceled.isEmpty)
        #expect(try await station.database.printJobs.printJob(id: first.id)?.state == .printing)

        await printer.set(.up)
        try await station.waitUntil(first, is: .printed)
        try await station.waitUntil(second, is: .printed)
        await running.kill()
        #expect(await printer.printed == [first.id, second.id], "each once, in order")
        #expect(await running.events.questions.allSatisfy { $0 == nil }, "nobody was asked about a badge that came out")
    }

    @Test("with the other printer ready, a badge waiting in a printer out of labels is taken back as a possible duplicate, not printed twice")
    func outOfLabelsWithFailover() async throws {
        let station = try await QueueStation()
        defer { station.stop() }
        let first = ScriptedPrinter(), second = ScriptedPrinter()
        await first.set(.outOfLabels)
        let queue = station.queue(ScriptedOutput("badge", printer: first), failover: ScriptedOutput("spare", printer: second),
                                  timeout: .milliseconds(300), retryAfter: .seconds(120))
        let running = RunningQueue(queue)
        let job = try #require(try await station.enqueue(1))
        queue.nudge()
        try await station.waitUntil(job, is: .mayHavePrinted)
        #expect(await first.canceled == [job.id])
        #expect(await second.printed.isEmpty)
        let next = try #require(try await station.enqueue(2))
        queue.nudge()
        try await station.waitUntil(next, is: .printed)
        await running.kill()
        #expect(await second.printed == [next.id])
    }

    @Test("a lost job history left on the queue from before: a later badge is printed only when the printer itself confirms it",
          arguments: [true, false])
    func lingeringLostHistory(printerConfirms: Bool) async throws {
        let station = try await QueueStation()
        defer { station.stop() }
        let printer = ScriptedPrinter()
        await printer.set(reasons: ["cups-ipp-missing-job-history"], confirms: printerConfirms)
        let job = try #require(try await station.enqueue(1))
        let running = RunningQueue(station.queue(ScriptedOutput("badge", printer: printer)))
        try await eventually("the job settled") { try await station.database.printJobs.printJob(id: job.id)?.state.isFinal == true }
        await running.kill()
        let settled = try #require(try await station.database.printJobs.printJob(id: job.id))
        #expect(settled.state == (printerConfirms ? .printed : .unconfirmed), "\(settled.reason ?? "")")
    }

    @Test("a printer that stops answering as the print server says completed: unconfirmed, never printed, not sent elsewhere")
    func vanishedPrinter() async throws {
        let station = try await QueueStation()
        defer { station.stop() }
        let first = ScriptedPrinter(), second = ScriptedPrinter()
        await first.set(.vanishes)
        let job = try #require(try await station.enqueue(1))
        let running = RunningQueue(station.queue(ScriptedOutput("badge", printer: first), failover: ScriptedOutput("spare", printer: second)))
        try await station.waitUntil(job, is: .unconfirmed)
        await running.kill()
        #expect(try await station.database.printJobs.printJob(id: job.id)?.reason?.contains("stopped answering") == true)
        #expect(await second.printed.isEmpty, "it may have printed: an operator decides about a reprint")
    }

    @Test("a printer that aborts every job fails it after three tries")
    func failsAfterTries() async throws {
        let station = try await QueueStation()
        defer { station.stop() }
        let printer = ScriptedPrinter()
        await printer.set(.fail)
        let job = try #require(try await station.enqueue(1))
        let running = RunningQueue(station.queue(ScriptedOutput("badge", printer: printer)))
        try await station.waitUntil(job, is: .failed)
        await running.kill()
        #expect(try await station.database.printJobs.printJob(id: job.id)?.reason?.contains("could not print") == true)
    }

    @Test("a queue killed mid-job and started again over the same database finishes every job exactly once")
    func killedMidJob() async throws {
        let station = try await QueueStation()
        defer { station.stop() }
        // Long enough that the job is still out when the test kills the queue, even on a loaded machine.
        let printer = ScriptedPrinter(printTime: .seconds(3))
        let output = ScriptedOutput("badge", printer: printer)
        let first = try #require(try await station.enqueue(1)), second = try #require(try await station.enqueue(2))
        let running = RunningQueue(station.queue(output, timeout: .seconds(30)))
        try await eventually("the first job printing") { try await station.database.printJobs.printJob(id: first.id)?.state == .printing }
        await running.kill()
        let stopped = try #require(try await station.database.printJobs.printJob(id: first.id))
        #expect(stopped.state == .printing && stopped.cupsJobID != nil)

        let again = RunningQueue(station.queue(output, timeout: .seconds(30)))
        try await eventually("both jobs printed", timeout: .seconds(30)) { try await station.jobs().allSatisfy { $0.state == .printed } }
        await again.kill()
        #expect(await printer.printed == [first.id, second.id], "the job out at the kill was followed, not sent again")
    }

    @Test("a restart resumes a job in every unfinished state and leaves finished ones alone")
    func resumeEveryState() async throws {
        let station = try await QueueStation()
        defer { station.stop() }
        let printer = ScriptedPrinter()
        let output = ScriptedOutput("badge", printer: printer)
        let db = station.database
        // What a station that stopped could leave behind, one job per state.
        let queued = try #require(try await station.enqueue(1))
        let held = try #require(try await station.enqueue(2))
        try await db.printJobs.updatePrintJob(held.id, PrintJobUpdate(state: .held, reason: "Badge printer is not reachable"))
        let submitted = try #require(try await station.enqueue(3))
        let outJob = await printer.createJob(BadgeTicket(printJobID: submitted.id, media: ""))
        await printer.send(outJob)
        try await db.printJobs.updatePrintJob(submitted.id, PrintJobUpdate(state: .submitted, cupsJobID: outJob, submittedAt: .now()))
        let printing = try #require(try await station.enqueue(4))
        let printingJob = await printer.createJob(BadgeTicket(printJobID: printing.id, media: ""))
        await printer.send(printingJob)
        try await db.printJobs.updatePrintJob(printing.id, PrintJobUpdate(state: .printing, cupsJobID: printingJob, submittedAt: .now()))
        let lost = try #require(try await station.enqueue(5))
        try await db.printJobs.updatePrintJob(lost.id, PrintJobUpdate(state: .submitted, cupsJobID: 9999, submittedAt: .now()))
        let waiting = try #require(try await station.enqueue(6, at: Timestamp.now().adding(milliseconds: -3_600_000)))
        try await db.printJobs.updatePrintJob(waiting.id, PrintJobUpdate(state: .awaitingOperator, reason: "Waited too long"))
        // An old database's timed-out job (the state migration 0006 rewrites) still loads.
        let legacy = try #require(try await station.enqueue(7))
        _ = try await db.write { db in try db.execute(sql: "UPDATE print_jobs SET state = 'needs_attention' WHERE id = ?", arguments: [legacy.id]) }
        var finished: [Int64: PrintJobState] = [:]
        for (index, state) in [(8, PrintJobState.printed), (1, .unconfirmed), (2, .failed), (3, .canceled)] {
            let job = try #require(try await station.enqueue(index))
            try await db.printJobs.updatePrintJob(job.id, PrintJobUpdate(state: state, reason: "earlier", finishedAt: .now()))
            finished[job.id] = state
        }

        let running = RunningQueue(station.queue(output))
        try await eventually("every resumable job settled") {
            try await station.jobs().filter { $0.id != waiting.id }.allSatisfy { $0.state.isFinal }
        }
        try await eventually("the operator asked") { await running.events.questions.last??.jobIDs == [waiting.id] }
        await running.kill()
        let byID = Dictionary(uniqueKeysWithValues: try await station.jobs().map { ($0.id, $0.state) })
        #expect(byID[queued.id] == .printed)
        #expect(byID[held.id] == .printed)
        #expect(byID[submitted.id] == .printed)
        #expect(byID[printing.id] == .printed)
        #expect(byID[lost.id] == .unconfirmed, "a job the printer forgot is never claimed printed")
        #expect(byID[legacy.id] == .printed)
        #expect(byID[waiting.id] == .awaitingOperator, "a job that waited too long is not printed by itself")
        for (id, state) in finished { #expect(byID[id] == state) }
        let printed = await printer.printed
        #expect(printed.sorted() == [queued.id, held.id, submitted.id, printing.id, legacy.id].sorted())
        #expect(Set(printed).count == printed.count, "each badge came out once")
    }

    @Test("print once: a second admission of the same guest gets no job, a reprint does")
    func printOnce() async throws {
        let station = try await QueueStation()
        defer { station.stop() }
        let printer = ScriptedPrinter()
        let running = RunningQueue(station.queue(ScriptedOutput("badge", printer: printer)))
        let first = try #require(try await station.enqueue(1, policy: .once))
        running.queue.nudge()
        try await eventually("the badge printed") { try await station.database.printJobs.printJob(id: first.id)?.state == .printed }
        #expect(try await station.enqueue(1, policy: .once) == nil)
        let reprint = try await running.queue.reprint(guestID: "g-1", requestedBy: "alex")
        try await eventually("the reprint printed") { try await station.database.printJobs.printJob(id: reprint)?.state == .printed }
        await running.kill()
        #expect(await printer.printed == [first.id, reprint])
        let audit = try station.database.read { db in
            try String.fetchAll(db, sql: "SELECT operator || ' ' || action || ' ' || kiosk_open(detail) FROM audit_log WHERE action = 'reprint'")
        }
        #expect(audit == ["alex reprint print job \(reprint)"])
        await #expect(throws: PrintError.nothingToReprint) { try await running.queue.reprint(guestID: "nobody", requestedBy: "alex") }
    }

    @Test("jobs that waited too long wait for the operator, and each answer does what it says", arguments: StaleBadgesChoice.allCases)
    func staleJobs(answer: StaleBadgesChoice) async throws {
        let station = try await QueueStation()
        defer { station.stop() }
        let first = ScriptedPrinter(), second = ScriptedPrinter()
        let longAgo = Timestamp.now().adding(milliseconds: -20 * 60_000)
        var stale: [Int64] = []
        for index in 1...3 { stale.append(try #require(try await station.enqueue(index, at: longAgo.adding(milliseconds: Int64(index)))).id) }
        let queue = station.queue(ScriptedOutput("badge", printer: first), failover: ScriptedOutput("spare", printer: second))
        let running = RunningQueue(queue)
        try await eventually("the operator asked") { await running.events.questions.last??.count == 3 }
        let question = try #require(await running.events.questions.last ?? nil)
        #expect(question.text == "Print 3 waiting badges?")
        #expect(question.jobIDs == stale && question.otherPrinterAvailable)
        // A badge of now still prints meanwhile.
        let fresh = try #require(try await station.enqueue(4))
        queue.nudge()
        try await eventually("the fresh badge printed") { try await station.database.printJobs.printJob(id: fresh.id)?.state == .printed }
        #expect(try await station.jobs().filter { stale.contains($0.id) }.allSatisfy { $0.state == .awaitingOperator })

        try await queue.answer(answer)
        switch answer {
        case .printAll:
            try await eventually("the waiting badges printed") { try await station.jobs().allSatisfy { $0.state == .printed } }
            #expect(await first.printed == [fresh.id] + stale)
        case .printOnOtherPrinter:
            try await eventually("the waiting badges printed") { try await station.jobs().allSatisfy { $0.state == .printed } }
            #expect(await second.printed == stale)
            #expect(await first.printed == [fresh.id])
        case .cancel:
            #expect(try await station.jobs().filter { stale.contains($0.id) }.allSatisfy { $0.state == .canceled })
            try await Task.sleep(for: .milliseconds(300))
            #expect(await first.printed == [fresh.id])
            #expect(await second.printed.isEmpty)
        }
        await running.kill()
        #expect(await running.events.questions.last == .some(nil), "the question is withdrawn once answered")
    }

    @Test("print on the other printer without a second printer says so")
    func noOtherPrinter() async throws {
        let station = try await QueueStation()
        defer { station.stop() }
        let queue = station.queue(ScriptedOutput("badge"))
        await #expect(throws: PrintError.noOtherPrinter) { try await queue.answer(.printOnOtherPrinter) }
    }

    @Test("the PDF folder output writes badge-<job id>.pdf without the ticket code and reports it printed")
    func pdfFolder() async throws {
        let station = try await QueueStation()
        defer { station.stop() }
        let folder = station.directory.appending("badges")
        let job = try #require(try await station.enqueue(1))
        let running = RunningQueue(station.queue(PDFFolderOutput(folder: folder)))
        try await eventually("the badge written") { try await station.database.printJobs.printJob(id: job.id)?.state == .printed }
        await running.kill()
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files == ["badge-\(job.id).pdf"])
        #expect(try PDFTools.text(folder.appendingPathComponent(files[0])).contains("Guest Nº 1"))
        #expect(try await station.database.printJobs.printJob(id: job.id)?.queue == "pdf:\(folder.path)")
    }

    @Test func badgePDFsOlderThanTheRetentionAreDeletedAtTheNextWrite() async throws {
        let station = try await QueueStation()
        defer { station.stop() }
        let folder = station.directory.appending("badges")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Two badges from yesterday and an unrelated file of the same age.
        for name in ["badge-901.pdf", "badge-902.pdf", "notes.pdf"] {
            let file = folder.appendingPathComponent(name)
            FileManager.default.createFile(atPath: file.path, contents: Data("%PDF".utf8))
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-25 * 3_600)], ofItemAtPath: file.path)
        }
        let job = try #require(try await station.enqueue(1))
        let running = RunningQueue(station.queue(PDFFolderOutput(folder: folder)))
        try await eventually("the badge written") { try await station.database.printJobs.printJob(id: job.id)?.state == .printed }
        await running.kill()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["badge-\(job.id).pdf", "notes.pdf"])
    }
}
