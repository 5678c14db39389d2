import BadgePrint
import CheckInCore
import Foundation
import KioskStore
import Logging

/// One badge printed now and waited for: `kiosk badge` and `kiosk bench print`. The station uses
/// ``PrintQueue``, which works the same job rows with the same truth rules (``BadgeAttempt``).
///
/// A job is `printed` only when the printer confirms it **and** no printer fault (lost job
/// history, printer unreachable, jam…) was seen while it was out; otherwise a completed job is
/// `unconfirmed`. A job that no printer can take now (paused, out of labels, unreachable, or
/// timed out) is reported `needs_attention` and stays `held`: the station's queue prints it when
/// a printer is back.
/// ```swift
/// let spooler = PrintSpooler(database: db, cups: CupsClient(), templates: templates,
///                            configuration: SpoolerConfiguration(queue: "badge"))
/// let outcome = try await spooler.print(guestDetails, requestedBy: "alex")
/// ```
public actor PrintSpooler {
    public let configuration: SpoolerConfiguration
    /// Job and printer changes. One consumer; unconsumed updates are buffered.
    public nonisolated let updates: AsyncStream<PrintUpdate>
    private let continuation: AsyncStream<PrintUpdate>.Continuation
    private let database: KioskDatabase
    private let outputs: [any BadgeOutput]
    private let templates: BadgeTemplates
    private let renderer = BadgeRenderer()
    private let logger: Logger

    /// CUPS queues: `configuration.queue`, then `configuration.failoverQueue` (each with its own client).
    public init(database: KioskDatabase, cups: CupsClient, templates: BadgeTemplates = BadgeTemplates(),
                configuration: SpoolerConfiguration, logger: Logger = Logger(label: "kiosk.print")) {
        let failover = configuration.failoverQueue.flatMap { $0.isEmpty || $0 == configuration.queue ? nil : $0 }
        self.init(database: database, outputs: [CupsOutput(queue: configuration.queue, cups: cups)]
                    + (failover.map { [CupsOutput(queue: $0, cups: CupsClient(server: cups.server))] } ?? []),
                  templates: templates, configuration: configuration, logger: logger)
    }

    /// Any outputs, tried in order.
    public init(database: KioskDatabase, outputs: [any BadgeOutput], templates: BadgeTemplates = BadgeTemplates(),
                configuration: SpoolerConfiguration, logger: Logger = Logger(label: "kiosk.print")) {
        self.database = database
        self.outputs = outputs
        self.templates = templates
        self.configuration = configuration
        self.logger = logger
        (updates, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
    }

    /// Prints a guest's badge and waits for the outcome. Under the `once` policy a second badge
    /// needs `reprint: true` (logged).
    /// - Throws: ``PrintError/alreadyPrinted(jobID:)``, a `BadgeError` for a broken template, a ``StoreError``.
    public func print(_ guest: GuestDetails, requestedBy: String = "", reprint: Bool = false) async throws -> PrintOutcome {
        if configuration.policy == .once && !reprint, let previous = try await previousBadge(guestID: guest.guest.id) {
            throw PrintError.alreadyPrinted(jobID: previous.id)
        }
        let content = BadgeContent(guest: guest.guest, accessTypeName: guest.accessTypeName)
        let template = templates.template(forAccessType: content.accessTypeID)
        let pdf = try renderer.pdf(content, template: template)
        let job = try await database.printJobs.createPrintJob(
            guestID: guest.guest.id, code: guest.guest.code.value, queue: configuration.queue, reprint: reprint, requestedBy: requestedBy)
        return await run(job, pdf: pdf, template: template)
    }

    /// What an admission prints under the event's policy.
    /// - Returns: `nil` when the policy says not to print (on request only, walk-ins only, or already printed once).
    public func admitted(_ guest: GuestDetails, operatorName: String = "", walkIn: Bool = false) async throws -> PrintOutcome? {
        let alreadyPrinted = try await previousBadge(guestID: guest.guest.id) != nil
        guard configuration.policy.printsAutomatically(walkIn: walkIn, alreadyPrinted: alreadyPrinted) else { return nil }
        return try await print(guest, requestedBy: operatorName, reprint: configuration.policy == .once && alreadyPrinted)
    }

    /// Reprints the station's last badge (logged with the operator's name).
    public func reprintLast(requestedBy: String) async throws -> PrintOutcome {
        guard let last = try await database.printJobs.lastPrintJob(), let guest = try await database.printJobs.badgeGuest(id: last.guestID) else {
            throw PrintError.nothingToReprint
        }
        return try await print(guest, requestedBy: requestedBy, reprint: true)
    }

    /// The first printer's condition now, for a health line.
    public func printerStatus() async throws -> PrinterStatus {
        try await outputs[0].printerStatus(probeDevice: true)
    }

    /// Ends the update stream.
    public func shutdown() {
        continuation.finish()
    }

    private func previousBadge(guestID: String) async throws -> PrintJobRecord? {
        try await database.printJobs.jobs(guestID: guestID).first { $0.state.givesBadge }
    }

    /// Tries each output in turn. A printer that is down, paused or out of labels is skipped at
    /// once (the job waits `held` for the station); one that refuses jobs is tried, so its refusal
    /// is what the operator reads.
    private func run(_ job: PrintJobRecord, pdf: Data, template: BadgeTemplate) async -> PrintOutcome {
        let started = ContinuousClock.now
        var reason: String?
        var onlyRefused = true
        for output in outputs {
            let health: PrinterHealth
            do { health = try await output.printerStatus(probeDevice: true).health } catch { health = error.health }
            if let fault = health.fault, fault.blocksPrinting, Self.holds.contains(fault.kind) {
                reason = fault.sentence
                onlyRefused = false
                continuation.yield(PrintUpdate(jobID: job.id, state: .needsAttention, queue: output.queue, reason: nil, operatorMessage: reason))
                continue
            }
            let attempt = BadgeAttempt(
                database: database, output: output, pollInterval: configuration.pollInterval, logger: logger,
                report: { [weak self] row in await self?.report(row) },
                observe: { [weak self] status in await self?.observe(status, jobID: job.id) })
            let result = await attempt.submit(job, pdf: pdf, template: template, timeout: configuration.timeout)
            let msSubmit = result.sentAt.map { ($0 - started) / .milliseconds(1) }
            switch result.verdict {
            case .printed:
                return await settle(job, .printed, reason: nil, queue: output.queue, outputJobID: result.outputJobID, started: started, msSubmit: msSubmit)
            case .unconfirmed(let why):
                return await settle(job, .unconfirmed, reason: why, queue: output.queue, outputJobID: result.outputJobID, started: started, msSubmit: msSubmit)
            case .failed(let why):
                // Canceled before it is tried anywhere else (the printer refused or aborted it).
                if let outputJobID = result.outputJobID { await output.cancel(outputJobID) }
                reason = why
                logger.warning("Badge job \(job.id) did not print on \(output.queue): \(why)")
                _ = try? await database.printJobs.updatePrintJob(job.id, PrintJobUpdate(state: .queued, reason: why, newAttempt: true))
            case .timedOut(let why, let reachedPrinter):
                if let outputJobID = result.outputJobID { await output.cancel(outputJobID) }
                onlyRefused = false
                reason = why
                logger.warning("Badge job \(job.id) did not print on \(output.queue) in time: \(why)")
                let answer = reachedPrinter ? await output.printerAnswer(for: BadgeTicket(printJobID: job.id, media: "")) : .cannotAsk
                switch AbandonedJob.judge(reachedPrinter: reachedPrinter, answer: answer) {
                case .printed:
                    return await settle(job, .printed, reason: nil, queue: output.queue, outputJobID: result.outputJobID, started: started, msSubmit: msSubmit)
                case .mayHavePrinted:
                    // Never tried on the other printer: the badge may be out already.
                    return await settle(job, .mayHavePrinted, reason: AbandonedJob.reason(queue: output.queue, why: why), queue: output.queue,
                                        outputJobID: result.outputJobID, started: started, msSubmit: msSubmit)
                case .neverPrinted:
                    _ = try? await database.printJobs.updatePrintJob(job.id, PrintJobUpdate(state: .queued, reason: why, newAttempt: true))
                }
            case .waitingAtPrinter:
                // Left in the printer: it prints once the fault is fixed, and the station's queue
                // follows it from its next start (the row stays submitted or printing).
                let why = result.verdict.reason
                let row = try? await database.printJobs.printJob(id: job.id)
                if let row = try? await database.printJobs.updatePrintJob(job.id, PrintJobUpdate(state: row?.state ?? .submitted, reason: why)) {
                    report(row)
                }
                return PrintOutcome(jobID: job.id, state: .needsAttention, reason: why, queue: output.queue, cupsJobID: result.outputJobID,
                                    msSubmit: msSubmit, msFinal: (ContinuousClock.now - started) / .milliseconds(1))
            case .interrupted:
                onlyRefused = false
            }
        }
        return await settle(job, onlyRefused ? .failed : .held, reason: reason, queue: job.queue, outputJobID: nil, started: started, msSubmit: nil)
    }

    /// Faults that hold a job rather than fail it: they pass, and the job prints then.
    private static let holds: Set<PrinterFault.Kind> = [.outOfLabels, .jammed, .coverOpen, .paused, .printerUnreachable]

    private func settle(_ job: PrintJobRecord, _ state: PrintJobState, reason: String?, queue: String, outputJobID: Int?,
                        started: ContinuousClock.Instant, msSubmit: Double?) async -> PrintOutcome {
        let finished = ContinuousClock.now
        do {
            let row = try await database.printJobs.updatePrintJob(job.id, PrintJobUpdate(
                state: state, reason: reason, queue: queue, finishedAt: state.isFinal ? .now() : nil))
            if let row { report(row) }
        } catch {
            logger.error("Cannot record badge job \(job.id) as \(state.rawValue): \(error)")
        }
        return PrintOutcome(jobID: job.id, state: BadgeState(state), reason: reason, queue: queue, cupsJobID: outputJobID,
                            msSubmit: msSubmit, msFinal: (finished - started) / .milliseconds(1))
    }

    private func report(_ row: PrintJobRecord) {
        lastState = BadgeState(row.state)
        continuation.yield(PrintUpdate(jobID: row.id, state: lastState, queue: row.queue, reason: row.reason,
                                       operatorMessage: (row.state.isFinal && row.state != .printed) || row.state.waitsForOperator ? row.reason : nil))
    }

    private var lastState = BadgeState.queued

    private func observe(_ status: PrinterStatus, jobID: Int64) {
        continuation.yield(PrintUpdate(jobID: jobID, state: lastState, queue: status.queue, reason: nil, operatorMessage: status.operatorMessage))
    }
}
