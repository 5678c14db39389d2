import BadgePrint
import CheckInCore
import Foundation
import KioskStore
import Logging

/// Prints badges through CUPS and knows whether each one really came out.
///
/// Every job is a row in the station database, written before the spooler reports a change, so
/// a crash or restart loses none (``resume()`` picks them up). A job is `printed` only when CUPS
/// reports it completed **and** no printer fault (lost job history, printer unreachable, jam…)
/// was seen while it was out; otherwise a completed job is `unconfirmed` and offered for reprint.
/// The station's own timeout turns a job that stays out too long into `needs_attention`.
/// ```swift
/// let spooler = PrintSpooler(database: db, cups: CupsClient(), templates: templates,
///                            configuration: SpoolerConfiguration(queue: "badge"))
/// Task { for await update in spooler.updates { console.show(update.operatorMessage) } }
/// let outcome = try await spooler.print(guestDetails, requestedBy: "alex")
/// ```
public actor PrintSpooler {
    public let configuration: SpoolerConfiguration
    /// Job and printer changes, for the console. One consumer; unconsumed updates are buffered.
    public nonisolated let updates: AsyncStream<PrintUpdate>
    private let continuation: AsyncStream<PrintUpdate>.Continuation
    private let database: KioskDatabase
    private let cups: CupsClient
    private let templates: BadgeTemplates
    private let renderer = BadgeRenderer()
    private let logger: Logger
    private var watchers: [Int64: Task<Void, Never>] = [:]

    public init(database: KioskDatabase, cups: CupsClient, templates: BadgeTemplates = BadgeTemplates(),
                configuration: SpoolerConfiguration, logger: Logger = Logger(label: "kiosk.print")) {
        self.database = database
        self.cups = cups
        self.templates = templates
        self.configuration = configuration
        self.logger = logger
        (updates, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
    }

    /// Prints a guest's badge on an operator's or the station's request and waits for the
    /// outcome. Under the `once` policy a second badge needs `reprint: true` (logged).
    public func print(_ guest: GuestDetails, requestedBy: String = "", reprint: Bool = false) async throws -> PrintOutcome {
        if configuration.policy == .once && !reprint, let previous = try previousBadge(guestID: guest.guest.id) {
            throw PrintError.alreadyPrinted(jobID: previous.id)
        }
        let record = try await database.createPrintJob(
            guestID: guest.guest.id, code: guest.guest.code.value, queue: configuration.queue, reprint: reprint, requestedBy: requestedBy)
        return try await run(record, content: BadgeContent(guest: guest.guest, accessTypeName: guest.accessTypeName))
    }

    /// What the station calls after an admission: prints according to the event's policy.
    /// - Returns: `nil` when the policy says not to print (on request only, or already printed once).
    public func admitted(_ guest: GuestDetails, operatorName: String = "") async throws -> PrintOutcome? {
        switch configuration.policy {
        case .onRequest, .walkInsOnly: return nil
        case .once: if try previousBadge(guestID: guest.guest.id) != nil { return nil }
        case .onAdmission: break
        }
        return try await print(guest, requestedBy: operatorName)
    }

    /// Reprints the station's last badge (logged with the operator's name).
    public func reprintLast(requestedBy: String) async throws -> PrintOutcome {
        guard let last = try database.lastPrintJob(), let guest = try database.guest(id: last.guestID) else {
            throw PrintError.nothingToReprint
        }
        return try await print(guest, requestedBy: requestedBy, reprint: true)
    }

    /// Resumes after a restart: follows jobs CUPS still has, sends jobs that never reached it,
    /// and settles jobs whose CUPS job finished meanwhile. Returns each job's outcome.
    public func resume() async throws -> [PrintOutcome] {
        var outcomes: [PrintOutcome] = []
        for job in try database.printJobs(inStates: ["queued", "submitted", "printing", "needs_attention"]) {
            if let cupsJobID = job.cupsJobID {
                let started = ContinuousClock.now
                let elapsed = Duration.milliseconds(Timestamp.now().milliseconds - (job.submittedAt ?? job.createdAt).milliseconds)
                let remaining = job.state == "needs_attention" ? .zero : max(.zero, configuration.timeout - elapsed)
                let (state, reason) = await follow(job, queue: job.queue, cupsJobID: cupsJobID, deadline: ContinuousClock.now + remaining)
                if state == .needsAttention && job.state == "needs_attention" && reason == job.reason {
                    outcomes.append(PrintOutcome(jobID: job.id, state: state, reason: reason, queue: job.queue, cupsJobID: cupsJobID))
                    continue
                }
                outcomes.append(await settle(job, state: state, reason: reason, queue: job.queue, cupsJobID: cupsJobID, started: started, submitted: nil))
            } else if job.state == "needs_attention" {
                outcomes.append(PrintOutcome(jobID: job.id, state: .needsAttention, reason: job.reason, queue: job.queue))
            } else if let guest = try database.guest(id: job.guestID) {
                // Never reached CUPS (no job id recorded): send it now.
                logger.info("Resuming print job \(job.id) that never reached CUPS")
                outcomes.append(try await run(job, content: BadgeContent(guest: guest.guest, accessTypeName: guest.accessTypeName)))
            } else {
                try await database.updatePrintJob(job.id, PrintJobUpdate(state: BadgeState.failed.rawValue, reason: "The guest is no longer in the roster", finishedAt: .now()))
                outcomes.append(PrintOutcome(jobID: job.id, state: .failed, reason: "The guest is no longer in the roster", queue: job.queue))
            }
        }
        return outcomes
    }

    /// The printer's condition now, for the console's health line.
    public func printerStatus() async throws -> PrinterStatus {
        try await cups.printerStatus(queue: configuration.queue)
    }

    /// Ends the update stream and stops watching timed-out jobs.
    public func shutdown() {
        for watcher in watchers.values { watcher.cancel() }
        watchers.removeAll()
        continuation.finish()
    }

    // MARK: - One job

    private func previousBadge(guestID: String) throws -> PrintJobRecord? {
        try database.printJobs(guestID: guestID).first { ["printed", "submitted", "printing", "queued", "unconfirmed"].contains($0.state) }
    }

    private func template(for content: BadgeContent) -> BadgeTemplate { templates.template(forAccessType: content.accessTypeID) }

    /// Renders, submits and follows a job, failing over to the second queue when configured.
    private func run(_ record: PrintJobRecord, content: BadgeContent) async throws -> PrintOutcome {
        let started = ContinuousClock.now
        let template = template(for: content)
        let pdf = try renderer.pdf(content, template: template)
        var queue = record.queue
        var job = record
        while true {
            // The queue's own name for the template's size; the template's name when it has none.
            let media: String
            do {
                media = try await cups.media(queue: queue, widthMM: template.widthMM, heightMM: template.heightMM) ?? template.media
            } catch {
                logger.debug("no media list for \(queue): \(error)")
                media = template.media
            }
            logger.debug("badge job \(job.id): media \(media) on \(queue)")
            let attempt = await attemptOn(queue, job: job, pdf: pdf, media: media, content: content, started: started)
            let canFailOver = configuration.failoverQueue.map { $0 != queue && !$0.isEmpty } ?? false
            guard canFailOver, [.failed, .needsAttention].contains(attempt.state), let failover = configuration.failoverQueue else {
                if attempt.state == .needsAttention, let cupsJobID = attempt.cupsJobID { watchAfterTimeout(job.id, queue: queue, cupsJobID: cupsJobID) }
                return attempt
            }
            if let cupsJobID = attempt.cupsJobID { await cups.cancel(queue: queue, id: cupsJobID) }
            logger.warning("Badge job \(job.id) failed over from \(queue) to \(failover): \(attempt.reason ?? "")")
            queue = failover
            if let updated = try await database.updatePrintJob(job.id, PrintJobUpdate(state: BadgeState.queued.rawValue, reason: "moved from \(record.queue): \(attempt.reason ?? "")", queue: failover)) {
                job = updated
            }
            emit(job.id, .queued, queue: failover, reason: nil, message: "Badge sent to the second printer (\(failover))")
        }
    }

    private func attemptOn(_ queue: String, job: PrintJobRecord, pdf: Data, media: String, content: BadgeContent, started: ContinuousClock.Instant) async -> PrintOutcome {
        let cupsJobID: Int
        do {
            cupsJobID = try await cups.createJob(queue: queue, title: "Badge \(job.code) (job \(job.id))", media: media)
            try await database.updatePrintJob(job.id, PrintJobUpdate(state: BadgeState.submitted.rawValue, cupsJobID: cupsJobID, queue: queue, submittedAt: .now()))
            try await cups.sendDocument(pdf, queue: queue, jobID: cupsJobID)
        } catch {
            let reason = (error as? PrintError)?.description ?? String(describing: error)
            return await settle(job, state: .failed, reason: reason, queue: queue, cupsJobID: nil, started: started, submitted: nil)
        }
        let submitted = ContinuousClock.now
        emit(job.id, .submitted, queue: queue, reason: nil, message: nil)
        let (state, reason) = await follow(job, queue: queue, cupsJobID: cupsJobID, deadline: submitted + configuration.timeout)
        return await settle(job, state: state, reason: reason, queue: queue, cupsJobID: cupsJobID, started: started, submitted: submitted)
    }

    /// Records a job's final (or needs_attention) state and reports it.
    private func settle(_ job: PrintJobRecord, state: BadgeState, reason: String?, queue: String, cupsJobID: Int?,
                        started: ContinuousClock.Instant, submitted: ContinuousClock.Instant?) async -> PrintOutcome {
        let finished = ContinuousClock.now
        do {
            try await database.updatePrintJob(job.id, PrintJobUpdate(
                state: state.rawValue, reason: reason, cupsJobID: cupsJobID, queue: queue,
                finishedAt: state == .needsAttention ? nil : .now()))
        } catch {
            logger.error("Cannot record print job \(job.id) as \(state.rawValue): \(error)")
        }
        emit(job.id, state, queue: queue, reason: reason, message: state == .printed ? nil : reason)
        return PrintOutcome(jobID: job.id, state: state, reason: reason, queue: queue, cupsJobID: cupsJobID,
                            msSubmit: submitted.map { (($0 - started) / .milliseconds(1)) },
                            msFinal: (finished - started) / .milliseconds(1))
    }

    /// Polls the job and its printer until the job is final or the deadline passes.
    private func follow(_ job: PrintJobRecord, queue: String, cupsJobID: Int, deadline: ContinuousClock.Instant) async -> (BadgeState, String?) {
        var fault = job.faultSeen
        var lastMessage: String?
        var printing = job.state == "printing"
        while true {
            let status: JobStatus?
            do { status = try await cups.jobStatus(queue: queue, id: cupsJobID) } catch {
                // cupsd itself is away: nothing is known about the badge yet.
                lastMessage = error.description
                if ContinuousClock.now >= deadline { return (.needsAttention, lastMessage) }
                try? await Task.sleep(for: configuration.pollInterval)
                continue
            }
            // Ask the printer after the job: a job that just completed with the printer's job
            // history lost shows the fault in this same round.
            if let printer = try? await cups.printerStatus(queue: queue) {
                if fault == nil, let seen = printer.fault, status?.state != .pending || seen != "offline" {
                    fault = seen
                    _ = try? await database.updatePrintJob(job.id, PrintJobUpdate(state: printing ? "printing" : "submitted", faultSeen: seen))
                }
                let message = printer.operatorMessage
                if message != lastMessage {
                    lastMessage = message
                    emit(job.id, printing ? .printing : .submitted, queue: queue, reason: nil, message: message)
                }
            }
            guard let status else {
                return (.unconfirmed, "The print server no longer knows the job: check whether the badge came out")
            }
            if status.state == .processing && !printing {
                printing = true
                _ = try? await database.updatePrintJob(job.id, PrintJobUpdate(state: BadgeState.printing.rawValue))
                emit(job.id, .printing, queue: queue, reason: nil, message: lastMessage)
            }
            switch status.state {
            case .completed:
                if let fault {
                    return (.unconfirmed, "The printer reported a problem while printing (\(fault)): check the badge came out, reprint if not")
                }
                return (.printed, nil)
            case .canceled:
                return (.failed, status.printerMessage.isEmpty ? "The badge job was canceled" : "The badge job was canceled: \(status.printerMessage)")
            case .aborted:
                return (.failed, "The printer could not print the badge" + (status.printerMessage.isEmpty ? "" : ": \(status.printerMessage)"))
            default:
                break
            }
            if ContinuousClock.now >= deadline {
                let seconds = Int(configuration.timeout / .seconds(1))
                return (.needsAttention, lastMessage ?? "The badge did not print within \(seconds) s: check the printer")
            }
            try? await Task.sleep(for: configuration.pollInterval)
            if Task.isCancelled { return (.needsAttention, lastMessage ?? "Stopped following the badge job") }
        }
    }

    /// After a timeout the station keeps following the CUPS job (up to 15 minutes), so a badge
    /// that prints once labels are reloaded ends up `printed` (or `unconfirmed`).
    private func watchAfterTimeout(_ jobID: Int64, queue: String, cupsJobID: Int) {
        guard configuration.keepWatchingAfterTimeout else { return }
        watchers[jobID] = Task { [weak self] in
            guard let self else { return }
            await self.finishWatching(jobID, queue: queue, cupsJobID: cupsJobID)
        }
    }

    private func finishWatching(_ jobID: Int64, queue: String, cupsJobID: Int) async {
        defer { watchers[jobID] = nil }
        guard let job = try? database.printJob(id: jobID) else { return }
        let started = ContinuousClock.now
        let (state, reason) = await follow(job, queue: queue, cupsJobID: cupsJobID, deadline: .now + .seconds(900))
        guard !Task.isCancelled, state != .needsAttention else { return }
        _ = await settle(job, state: state, reason: reason, queue: queue, cupsJobID: cupsJobID, started: started, submitted: nil)
    }

    private func emit(_ jobID: Int64, _ state: BadgeState, queue: String, reason: String?, message: String?) {
        logger.debug("print job \(jobID): \(state.rawValue) \(message ?? "")")
        continuation.yield(PrintUpdate(jobID: jobID, state: state, queue: queue, reason: reason, operatorMessage: message))
    }
}
