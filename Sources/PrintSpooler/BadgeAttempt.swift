import BadgePrint
import CheckInCore
import Foundation
import KioskStore
import Logging

/// How one try of a badge on one output ended.
enum AttemptVerdict: Sendable, Equatable {
    /// The printer confirmed it and reported no fault while it was out.
    case printed
    /// "Completed" with a fault seen while out, or a job the printer forgot: maybe no badge. Final.
    case unconfirmed(String)
    /// The output refused or aborted the job: it may be tried elsewhere.
    case failed(String)
    /// Not finished by the deadline, with nothing a person can fix to explain it (the printer
    /// hangs or went away, the queue is paused). `reachedPrinter`: the print server had started
    /// sending it to the printer, which may then have it (see ``AbandonedJob``).
    case timedOut(String, reachedPrinter: Bool)
    /// Not finished by the deadline because the printer that has it waits for a person: out of
    /// labels, jammed, cover open. It prints once that is fixed, so it is left there.
    case waitingAtPrinter(PrinterFault)
    /// The station is shutting down: the job stays as recorded (the next start follows it).
    case interrupted

    var reason: String? {
        switch self {
        case .printed, .interrupted: nil
        case .unconfirmed(let reason), .failed(let reason), .timedOut(let reason, _): reason
        case .waitingAtPrinter(let fault): "Waiting in the printer: \(fault.sentence), and this badge prints then"
        }
    }
}

/// What ``BadgeAttempt/submit(_:pdf:template:timeout:)`` ends with.
struct AttemptResult: Sendable {
    var verdict: AttemptVerdict
    /// The output's job id, which the caller cancels when it moves on.
    var outputJobID: Int?
    /// When the output had the whole document.
    var sentAt: ContinuousClock.Instant?
}

/// One badge on one output: submit it, then follow it to its end with the printer truth rules.
///
/// Every state change is committed to the job's row before it is reported, so a restart resumes
/// exactly where this left off. Shared by ``PrintQueue`` (the station) and ``PrintSpooler``
/// (`kiosk badge`), so both tell the same truth.
struct BadgeAttempt: Sendable {
    let database: KioskDatabase
    let output: any BadgeOutput
    let pollInterval: Duration
    let logger: Logger
    /// Each committed change of the job's row.
    let report: @Sendable (PrintJobRecord) async -> Void
    /// Each printer status read while the job is out.
    let observe: @Sendable (PrinterStatus) async -> Void
    /// Stop following (graceful shutdown).
    var shouldStop: @Sendable () -> Bool = { false }

    /// Sends the rendered badge (`pdf`; the template gives its size, and the media name used when
    /// the output has none of its own) and follows it until it ends or `timeout` passes.
    func submit(_ job: PrintJobRecord, pdf: Data, template: BadgeTemplate, timeout: Duration) async -> AttemptResult {
        let media: String
        do {
            media = try await output.media(widthMM: template.widthMM, heightMM: template.heightMM) ?? template.media
        } catch {
            logger.debug("no media list for \(output.queue): \(error)")
            media = template.media
        }
        let ticket = BadgeTicket(printJobID: job.id, media: media)
        // cupsd keeps "lost job history" on the queue after a printer died mid-job, until an admin
        // clears it: left from before, it says nothing about this badge (the printer's word decides).
        let lingering = (try? await output.printerStatus(probeDevice: false))?.fault == Self.lostHistory
        let outputJobID: Int
        do {
            outputJobID = try await output.createJob(ticket)
            // Recorded before the document goes: a crash after this follows the job, never sends it twice.
            let submitted = try await database.printJobs.updatePrintJob(job.id, PrintJobUpdate(
                state: .submitted, cupsJobID: outputJobID, queue: output.queue, submittedAt: .now(), newAttempt: true))
            if let submitted { await report(submitted) }
        } catch {
            return AttemptResult(verdict: .failed(Self.describe(error)))
        }
        do {
            try await output.sendDocument(pdf, jobID: outputJobID, ticket: ticket)
        } catch {
            return AttemptResult(verdict: .failed(error.description), outputJobID: outputJobID)
        }
        let sentAt = ContinuousClock.now
        let verdict = await follow(job.id, outputJobID: outputJobID, ticket: ticket, printing: false, faultSeen: nil,
                                   deadline: sentAt + timeout, timeout: timeout, lostHistoryBefore: lingering)
        return AttemptResult(verdict: verdict, outputJobID: outputJobID, sentAt: sentAt)
    }

    /// Follows a job already at the output until it ends or `deadline` passes.
    /// - Parameter lostHistoryBefore: the queue already reported a lost job history before this
    ///   job was sent; only the printer's own "completed" then makes the badge printed.
    /// - Parameter waitingFor: the printer had the job waiting for a person when this follow began.
    ///   A printer whose fault is fixed (a new roll in) gets the whole `timeout` from then to print
    ///   the badge, so one fixed just before the deadline is not taken for a hung printer.
    func follow(_ jobID: Int64, outputJobID: Int, ticket: BadgeTicket, printing wasPrinting: Bool, faultSeen: String?,
                deadline: ContinuousClock.Instant, timeout: Duration, lostHistoryBefore: Bool = false,
                waitingFor: PrinterFault? = nil) async -> AttemptVerdict {
        var fault = faultSeen
        var lastMessage: String?
        var printing = wasPrinting
        var deadline = deadline
        // What the printer said while it had the job: a person's fix it waits for, if any.
        var waitsFor = waitingFor
        while true {
            let status: JobStatus?
            do { status = try await output.jobStatus(outputJobID) } catch {
                // The print server itself is away: nothing is known about the badge yet.
                lastMessage = error.description
                if ContinuousClock.now >= deadline { return .timedOut(error.description, reachedPrinter: printing) }
                try? await Task.sleep(for: pollInterval)
                if Task.isCancelled || shouldStop() { return .interrupted }
                continue
            }
            // Ask the printer after the job: a job that just completed with the printer's job
            // history lost shows the fault in this same round.
            var paused = false
            if let printer = try? await output.printerStatus(probeDevice: false) {
                // While the job waits in the print server, the queue's device reasons are what
                // cupsd kept from the last job (it resets them as this one starts): its own
                // state (paused, refusing) is all that is news then.
                let pending = status?.state == .pending || status?.state == .held
                if !pending || printer.state == .stopped || !printer.acceptingJobs { await observe(printer) }
                paused = printer.state == .stopped || printer.baseReasons.contains("paused")
                let fixed = waitsFor != nil && !pending && printer.waitsForPerson == nil
                waitsFor = pending ? nil : printer.waitsForPerson
                if fixed { deadline = max(deadline, .now + timeout) }
                if fault == nil, let seen = printer.fault, !pending || seen == Self.lostHistory,
                   !(lostHistoryBefore && seen == Self.lostHistory) {
                    fault = seen
                    _ = try? await database.printJobs.updatePrintJob(jobID, PrintJobUpdate(state: printing ? .printing : .submitted, faultSeen: seen))
                }
                lastMessage = printer.operatorMessage ?? lastMessage
            }
            guard let status else {
                return .unconfirmed("The print server no longer knows the job: check whether the badge came out")
            }
            if status.state == .processing && !printing {
                printing = true
                if let row = try? await database.printJobs.updatePrintJob(jobID, PrintJobUpdate(state: .printing)) { await report(row) }
            }
            switch status.state {
            case .completed:
                if let fault {
                    return .unconfirmed("The printer reported a problem while printing (\(fault)): check the badge came out, reprint if not")
                }
                // CUPS's "completed" is not proof (see CupsClient.deviceJobAnswer): the printer's own word wins.
                let answer = await output.printerAnswer(for: ticket)
                if answer == .ended(.aborted) || answer == .ended(.canceled) {
                    return .failed("The printer did not print the badge (it \(answer == .ended(.aborted) ? "aborted" : "canceled") the job)")
                }
                if answer == .unreachable {
                    return .unconfirmed("The printer stopped answering as the job ended: check the badge came out, reprint if not")
                }
                if lostHistoryBefore && answer != .ended(.completed) {
                    return .unconfirmed("The printer's queue still reports a lost job (cups-ipp-missing-job-history): check the badge came out; "
                                        + "support clears it with lpadmin -p \(output.queue) -o printer-state-reasons=none")
                }
                return .printed
            case .canceled:
                return .failed(status.printerMessage.isEmpty ? "The badge job was canceled" : "The badge job was canceled: \(status.printerMessage)")
            case .aborted:
                return .failed("The printer could not print the badge" + (status.printerMessage.isEmpty ? "" : ": \(status.printerMessage)"))
            case .stopped where !paused:
                // processing-stopped on a running queue: CUPS gave up on the document (filter errors).
                return .failed("The print server stopped the badge job" + (status.printerMessage.isEmpty ? "" : ": \(status.printerMessage)"))
            default:
                break
            }
            if ContinuousClock.now >= deadline {
                if printing, let waitsFor { return .waitingAtPrinter(waitsFor) }
                return .timedOut(lastMessage ?? "The badge did not print within \(Int(timeout / .seconds(1))) s: check the printer",
                                 reachedPrinter: printing)
            }
            try? await Task.sleep(for: pollInterval)
            if Task.isCancelled || shouldStop() { return .interrupted }
        }
    }

    static let lostHistory = "cups-ipp-missing-job-history"

    static func describe(_ error: any Error) -> String {
        (error as? PrintError)?.description ?? (error as? StoreError)?.description ?? String(describing: error)
    }
}
