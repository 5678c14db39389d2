import BadgePrint
import CheckInCore
import Foundation
import KioskStore
import Logging
import PrintSpooler

/// The print queue `kiosk run` uses: `--printer QUEUE` (CUPS, with `printer_failover`),
/// `pdf:DIR`, the default folder of PDFs in the data directory, or `none`.
enum StationPrinting {
    static func open(_ configuration: StationConfiguration, database: KioskDatabase, logger: Logger) throws -> (any BadgePrinting)? {
        let primary: any BadgeOutput
        switch configuration.printer {
        case "none"?:
            return nil
        case nil:
            primary = PDFFolderOutput(folder: database.dataDirectory.appendingPathComponent("badges"), retention: configuration.pdfRetention)
        case let value? where value.hasPrefix("pdf:"):
            let path = String(value.dropFirst(4))
            primary = PDFFolderOutput(
                folder: path.isEmpty ? database.dataDirectory.appendingPathComponent("badges") : URL(fileURLWithPath: path),
                retention: configuration.pdfRetention)
        case let queue?:
            primary = CupsOutput(queue: queue, cups: CupsClient())
        }
        let failover = configuration.failoverPrinter.map { CupsOutput(queue: $0, cups: CupsClient()) }
        let templates: BadgeTemplates
        do {
            templates = try configuration.badgeTemplate.map { try BadgeTemplates.load(from: URL(fileURLWithPath: $0)) } ?? BadgeTemplates()
        } catch {
            throw StationError.unusableInput("The badge templates in \(configuration.badgeTemplate ?? "") cannot be used (\(error)): fix them or remove template = … from the configuration.")
        }
        let queue = PrintQueue(database: database, primary: primary, failover: failover, templates: templates,
                               configuration: PrintQueueConfiguration(printTimeout: configuration.printTimeout, staleAfter: configuration.printStaleAfter),
                               logger: logger)
        return QueuePrinting(queue: queue, database: database, name: primary.queue.hasPrefix("pdf:") ? primary.queue : "cups:\(primary.queue)",
                             queueName: primary.queue)
    }
}

/// The durable ``PrintSpooler/PrintQueue`` as the station's ``BadgePrinting``: its events in the
/// station's words (badge progress, the printer's condition with the queue's counts, the question
/// about badges that waited too long).
struct QueuePrinting: BadgePrinting {
    let queue: PrintQueue
    let database: KioskDatabase
    let name: String
    let queueName: String
    let news: AsyncStream<PrintQueueNews>
    private let continuation: AsyncStream<PrintQueueNews>.Continuation

    init(queue: PrintQueue, database: KioskDatabase, name: String, queueName: String) {
        self.queue = queue
        self.database = database
        self.name = name
        self.queueName = queueName
        (news, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1024))
    }

    func nudge() { queue.nudge() }

    func reprint(guestID: String, requestedBy: String) async throws -> Int64 {
        try await queue.reprint(guestID: guestID, requestedBy: requestedBy)
    }

    func answer(_ choice: StaleBadgesChoice) async throws {
        try await queue.answer(choice)
    }

    /// Runs the queue and passes its events on until the station stops.
    func run() async throws {
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { try await queue.run() }
            group.addTask {
                var health: PrinterHealth = .ready
                for await event in queue.events {
                    switch event {
                    case .job(let change):
                        continuation.yield(.badge(Self.progress(change)))
                    case .printer(let queue, let changed):
                        guard queue == queueName else { continue }
                        health = changed
                    case .staleJobs(let question):
                        continuation.yield(.staleBadges(question.map(Self.offered)))
                        continue
                    }
                    let waiting = (try? await database.printJobs.unfinishedPrintJobs().count) ?? 0
                    continuation.yield(.printer(Self.condition(health, name: name, waiting: waiting)))
                }
                continuation.finish()
            }
        }
    }

    /// The question as the console offers it: the other printer only when there is one.
    static func offered(_ question: StaleJobsQuestion) -> StaleBadgesQuestion {
        StaleBadgesQuestion(count: question.count, choices: StaleBadgesChoice.allCases.filter { $0 != .printOnOtherPrinter || question.otherPrinterAvailable })
    }

    static func progress(_ change: PrintJobChange) -> BadgeProgress {
        let stage: BadgeProgress.Stage = switch change.state {
        case .queued, .submitted: .queued
        case .printing: .printing
        case .printed: .printed
        case .held, .awaitingOperator, .unconfirmed, .failed: .atDesk
        case .canceled: .canceled
        }
        return BadgeProgress(jobID: change.jobID, guestID: change.guestID, stage: stage, state: change.state.rawValue, reason: change.operatorWords,
                             attendeeWords: change.attendeeWords)
    }

    static func condition(_ health: PrinterHealth, name: String, waiting: Int) -> PrinterCondition {
        let state: PrinterCondition.State = switch health {
        case .ready: .ready
        case .busy: .printing
        case .fault(let fault): .fault(fault.words, fix: fault.fix)
        }
        return PrinterCondition(state: state, name: name, waiting: waiting)
    }
}
