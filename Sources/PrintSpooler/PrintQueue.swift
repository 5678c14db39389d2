import BadgePrint
import CheckInCore
import KioskStore
import Logging
import ServiceLifecycle

/// The station's durable print queue: badge jobs are rows in the station database, and this
/// service works them in order, one at a time, following each to its end with the printer truth
/// rules (CUPS "completed" plus a fault seen while the job was out is `unconfirmed`, never
/// `printed`).
///
/// - On start it resumes every unfinished job (a job CUPS has is followed, the others are sent).
/// - A job that fails or times out (``PrintQueueConfiguration/printTimeout``) is canceled and
///   tried on the second printer when one is configured and ready; when no printer can take it,
///   it is `held`, and the line behind it waits, until a printer is ready again (the printers are
///   asked every second meanwhile, the printer itself too, not only cupsd).
/// - Jobs that waited longer than ``PrintQueueConfiguration/staleAfter`` are set aside and the
///   operator is asked ("Print 12 waiting badges?"); ``answer(_:)`` says what happens to them.
///
/// Nothing calling it waits for a printer: a check-in writes its job row in its own transaction
/// (``KioskStore/KioskDatabase/enqueueBadge(_:guestID:code:walkIn:policy:queue:at:)``) and calls
/// ``nudge()``; progress comes on ``events``.
/// ```swift
/// let queue = PrintQueue(database: db, primary: CupsOutput(queue: "badge"), failover: nil,
///                        templates: templates, configuration: PrintQueueConfiguration(), logger: logger)
/// let group = ServiceGroup(services: [queue, …], gracefulShutdownSignals: [.sigterm], logger: logger)
/// Task { for await event in queue.events { console.show(event) } }
/// ```
public actor PrintQueue: Service {
    public let configuration: PrintQueueConfiguration
    /// Job changes, printer health changes and the operator's question. One consumer; when it
    /// falls behind, the newest events are kept.
    public nonisolated let events: AsyncStream<PrintQueueEvent>
    let continuation: AsyncStream<PrintQueueEvent>.Continuation
    let database: KioskDatabase
    let primary: any BadgeOutput
    let failover: (any BadgeOutput)?
    let templates: BadgeTemplates
    let renderer = BadgeRenderer()
    let logger: Logger
    let wakeup = WakeSignal()
    var health: [String: PrinterHealth] = [:]
    var healthCheckedAt: ContinuousClock.Instant?
    /// Outputs that just failed or timed out get no job until then.
    var restingUntil: [String: ContinuousClock.Instant] = [:]
    /// Tries of a job that a printer refused or aborted.
    var failedTries: [Int64: Int] = [:]
    var question: StaleJobsQuestion?

    /// - Parameters:
    ///   - primary: the printer badges go to.
    ///   - failover: a second printer for jobs that fail or time out on the first (ignored when it
    ///     names the same queue).
    public init(database: KioskDatabase, primary: any BadgeOutput, failover: (any BadgeOutput)?,
                templates: BadgeTemplates = BadgeTemplates(), configuration: PrintQueueConfiguration = PrintQueueConfiguration(),
                logger: Logger = Logger(label: "kiosk.print")) {
        self.database = database
        self.primary = primary
        self.failover = failover.flatMap { $0.queue == primary.queue ? nil : $0 }
        self.templates = templates
        self.configuration = configuration
        self.logger = logger
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1024))
    }

    /// Resumes every unfinished job, then works the queue until graceful shutdown (or until the
    /// task is cancelled). A job out at the printer then stays `submitted`: the next start
    /// follows it. Ends the ``events`` stream when it returns.
    public func run() async throws {
        defer { continuation.finish() }
        let drain = configuration.shutdownDrain
        await withGracefulShutdownHandler {
            await work()
        } onGracefulShutdown: { [wakeup] in
            wakeup.stop(draining: drain)
        }
    }

    /// A job row was just written: look at the queue now rather than at the next poll.
    public nonisolated func nudge() {
        wakeup.signal()
    }

    /// Prints a guest's badge again on an operator's request (audited with the operator's name).
    /// - Returns: the new job's id; its progress comes on ``events``.
    /// - Throws: ``PrintError/nothingToReprint`` for an unknown guest, or a ``StoreError``.
    public func reprint(guestID: String, requestedBy: String) async throws -> Int64 {
        guard let guest = try await database.printJobs.badgeGuest(id: guestID) else { throw PrintError.nothingToReprint }
        let job = try await database.printJobs.createPrintJob(guestID: guestID, code: guest.guest.code.value, queue: primary.queue,
                                                    reprint: true, requestedBy: requestedBy)
        report(job)
        nudge()
        return job.id
    }

    /// The operator's answer to the ``StaleJobsQuestion`` on ``events``: applies to every job set
    /// aside now.
    /// - Throws: ``PrintError/noOtherPrinter`` for ``StaleBadgesChoice/printOnOtherPrinter`` without a
    ///   second printer, or a ``StoreError``.
    public func answer(_ answer: StaleBadgesChoice) async throws {
        let changed: [PrintJobRecord]
        switch answer {
        case .printAll:
            changed = try await database.printJobs.releaseSetAsidePrintJobs(toQueue: nil)
        case .printOnOtherPrinter:
            guard let failover else { throw PrintError.noOtherPrinter }
            changed = try await database.printJobs.releaseSetAsidePrintJobs(toQueue: failover.queue)
        case .cancel:
            changed = try await database.printJobs.cancelSetAsidePrintJobs(reason: "Canceled by the operator: the badge waited too long")
        }
        logger.info("Operator answered \(answer.rawValue) for \(changed.count) waiting badge jobs")
        for job in changed { report(job) }
        if question != nil {
            question = nil
            continuation.yield(.staleJobs(nil))
        }
        nudge()
    }

    /// The printers' health as last seen, by queue name, and the open question if any.
    public func status() -> PrintQueueStatus {
        PrintQueueStatus(primary: health[primary.queue], failover: failover.flatMap { health[$0.queue] }, question: question)
    }
}

/// The print queue's state for `kiosk status` and the console.
public struct PrintQueueStatus: Sendable, Hashable {
    /// `nil` until the printer was first asked.
    public var primary: PrinterHealth?
    public var failover: PrinterHealth?
    public var question: StaleJobsQuestion?
}
