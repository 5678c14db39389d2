import CheckInCore
import KioskStore
import Logging

/// Badges a printer has that do not come out in time: left in a printer that waits for a person
/// (it prints them once fixed), or taken back, and then only the printer's own word frees them
/// for another try (``AbandonedJob``): a badge canceled in CUPS can still come out of the printer.
extension PrintQueue {
    /// A badge waiting in a printer for a person (out of labels, a jam, the cover open) stays
    /// there and is followed on: it prints once that is fixed, and is recorded printed then. The
    /// badges behind it wait `held` with the printer's fault, and the operator is asked about
    /// those that wait too long. It is taken back (canceled, and then a possible duplicate: the
    /// printer has it) only when the other printer could print it now, or when it has waited
    /// longer than the stale limit itself (its attendee may have left).
    func waitWhileThePrinterNeedsAPerson(_ job: PrintJobRecord, verdict: AttemptVerdict, output: any BadgeOutput,
                                         outputJobID: Int) async -> AttemptVerdict {
        var verdict = verdict
        var shown: PrinterFault?
        while case .waitingAtPrinter(let fault) = verdict, !isStopping {
            await refreshHealth(of: outputs.filter { $0.queue != output.queue })
            let otherReady = outputs.contains { $0.queue != output.queue && isReady($0) }
            let waited = Duration.milliseconds(Timestamp.now().milliseconds - job.createdAt.milliseconds) > configuration.staleAfter
            if otherReady || waited {
                return .timedOut(verdict.reason ?? fault.sentence, reachedPrinter: true)
            }
            if shown != fault {
                shown = fault
                let row = try? await database.printJobs.printJob(id: job.id)
                await record(job.id, PrintJobUpdate(state: row?.state == .submitted ? .submitted : .printing, reason: verdict.reason))
            }
            for held in (try? await database.printJobs.holdWaitingPrintJobs(reason: fault.sentence)) ?? [] { report(held) }
            try? await setAsideStaleJobs()
            if let jobs = try? await database.printJobs.unfinishedPrintJobs() { updateQuestion(jobs) }
            let row = try? await database.printJobs.printJob(id: job.id)
            verdict = await attempt(on: output).follow(
                job.id, outputJobID: outputJobID, ticket: BadgeTicket(printJobID: job.id, media: ""), printing: true,
                faultSeen: row?.faultSeen, deadline: .now + configuration.printTimeout, timeout: configuration.printTimeout,
                waitingFor: fault)
        }
        return verdict
    }

    /// A try that did not end in time: canceled, then the printer is asked whether it had the
    /// badge (``AbandonedJob``). One it never had goes back to its place in the line (a new
    /// printer job, here or on the other printer); one it had waits for the operator as a
    /// possible duplicate, never sent again by itself. - Returns: true when the job is done.
    func giveUp(_ job: PrintJobRecord, reason: String, reachedPrinter: Bool, output: any BadgeOutput, outputJobID: Int?) async -> Bool {
        if let outputJobID { await output.cancel(outputJobID) }
        restingUntil[output.queue] = .now + configuration.retryAfter
        logger.warning("Badge job \(job.id) did not print on \(output.queue) in time: \(reason)")
        let answer = reachedPrinter ? await output.printerAnswer(for: BadgeTicket(printJobID: job.id, media: "")) : .cannotAsk
        switch AbandonedJob.judge(reachedPrinter: reachedPrinter, answer: answer) {
        case .printed:
            await settle(job.id, .printed, reason: nil)
            return true
        case .mayHavePrinted:
            logger.warning("Badge job \(job.id) may have printed on \(output.queue): it waits for the operator")
            await record(job.id, PrintJobUpdate(state: .mayHavePrinted, reason: AbandonedJob.reason(queue: output.queue, why: reason)))
            return true
        case .neverPrinted:
            await record(job.id, PrintJobUpdate(state: .queued, reason: reason, newAttempt: true))
            return false
        }
    }
}
