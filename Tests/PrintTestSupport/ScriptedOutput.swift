import Foundation
import PrintSpooler

/// A printer for in-process tests that does what it is told: print, be down, be slow, abort every
/// job, never finish one, or say "completed" for a job it aborted (as CUPS's ipp backend can).
public actor ScriptedPrinter {
    public enum Mode: Sendable, Equatable {
        /// Prints each job in `printTime`.
        case up
        /// Unreachable: its queue says so, and a job sent anyway never finishes.
        case down
        /// Prints each job in this time.
        case slow(Duration)
        /// Aborts every job.
        case fail
        /// Takes every job and never finishes it (no fault shown).
        case hang
        /// The print server says "completed" but the printer itself aborted the job.
        case lieCompleted
        /// The print server says "completed" as the printer dies with the job in it.
        case vanishes
        /// The print server never starts the job (it stays pending there: the printer never has it).
        case stuck
        /// Takes every job and waits with it, reporting `media-empty-warning` (as a printer out of
        /// labels does while it holds a job), until the mode is set back to `.up`: then it prints it.
        case outOfLabels
    }

    private struct Job {
        var ticket: BadgeTicket
        var state: JobStatus.State = .pending
        var doneAt: ContinuousClock.Instant?
        var outcome: JobStatus.State = .completed
        var deviceState: JobStatus.State?
        var vanished = false
        /// Waiting in the printer for labels (``Mode/outOfLabels``).
        var waitsForLabels = false
    }

    public private(set) var mode: Mode = .up
    /// printer-state-reasons its queue reports.
    public private(set) var reasons: [String] = []
    /// The printer itself says "completed" for the jobs it printed (else it keeps no history).
    public private(set) var confirms = false
    /// Print job ids of the badges that came out, in the order they did.
    public private(set) var printed: [Int64] = []
    /// The most jobs that were out at the same time.
    public private(set) var mostAtOnce = 0
    public private(set) var canceled: [Int64] = []
    private var jobs: [Int: Job] = [:]
    private var nextID = 1
    public let printTime: Duration

    public init(printTime: Duration = .milliseconds(30)) {
        self.printTime = printTime
    }

    public func set(_ mode: Mode) { self.mode = mode }
    public func set(reasons: [String], confirms: Bool) { (self.reasons, self.confirms) = (reasons, confirms) }

    public func createJob(_ ticket: BadgeTicket) -> Int {
        defer { nextID += 1 }
        jobs[nextID] = Job(ticket: ticket)
        return nextID
    }

    public func send(_ id: Int) {
        guard var job = jobs[id] else { return }
        job.state = .processing
        switch mode {
        case .up: job.doneAt = .now + printTime; job.deviceState = confirms ? .completed : nil
        case .slow(let time): job.doneAt = .now + time
        case .fail: job.doneAt = .now + printTime; job.outcome = .aborted
        case .lieCompleted: job.doneAt = .now + printTime; job.deviceState = .aborted
        case .vanishes: job.doneAt = .now + printTime; job.vanished = true
        case .down, .hang: job.doneAt = nil
        case .stuck: job.state = .pending
        case .outOfLabels: job.waitsForLabels = true
        }
        jobs[id] = job
        mostAtOnce = max(mostAtOnce, jobs.values.filter { !$0.state.isFinal }.count)
    }

    public func status(_ id: Int) -> JobStatus? {
        guard var job = jobs[id] else { return nil }
        if job.waitsForLabels, mode != .outOfLabels, !job.state.isFinal {
            // A new roll is in: the badge that waited comes out.
            job.waitsForLabels = false
            job.doneAt = .now + printTime
            job.deviceState = confirms ? .completed : nil
            jobs[id] = job
        }
        if !job.state.isFinal, let doneAt = job.doneAt, doneAt <= .now {
            job.state = job.outcome
            if job.outcome == .completed && job.deviceState != .aborted && !job.vanished { printed.append(job.ticket.printJobID) }
            jobs[id] = job
        }
        return JobStatus(id: id, state: job.state)
    }

    /// What the printer itself says about a job (``PrinterJobAnswer``).
    public func answer(_ printJobID: Int64) -> PrinterJobAnswer {
        guard let job = jobs.values.filter({ $0.ticket.printJobID == printJobID && $0.state.isFinal }).last else { return .cannotAsk }
        if job.vanished { return .unreachable }
        return job.deviceState.map(PrinterJobAnswer.ended) ?? .cannotAsk
    }

    public func cancel(_ id: Int) {
        guard var job = jobs[id], !job.state.isFinal else { return }
        job.state = .canceled
        jobs[id] = job
        canceled.append(job.ticket.printJobID)
    }

    public func isOut(_ id: Int) -> Bool { jobs[id].map { !$0.state.isFinal } ?? false }

    public func status(queue: String, probeDevice: Bool) -> PrinterStatus {
        let busy = jobs.values.contains { $0.state == .processing }
        let waiting = mode == .outOfLabels && jobs.values.contains { $0.waitsForLabels && !$0.state.isFinal }
        return PrinterStatus(queue: queue, state: busy ? .processing : .idle, reasons: reasons + (waiting ? ["media-empty-warning"] : []),
                             device: mode == .down ? DeviceStatus(reachable: false) : nil)
    }
}

/// A ``ScriptedPrinter`` as the print queue's output.
public struct ScriptedOutput: BadgeOutput {
    public let queue: String
    public let printer: ScriptedPrinter

    public init(_ queue: String, printer: ScriptedPrinter = ScriptedPrinter()) {
        self.queue = queue
        self.printer = printer
    }

    public func media(widthMM: Double, heightMM: Double) async throws(PrintError) -> String? { nil }
    public func createJob(_ ticket: BadgeTicket) async throws(PrintError) -> Int { await printer.createJob(ticket) }
    public func sendDocument(_ pdf: Data, jobID: Int, ticket: BadgeTicket) async throws(PrintError) { await printer.send(jobID) }
    public func jobStatus(_ jobID: Int) async throws(PrintError) -> JobStatus? { await printer.status(jobID) }
    public func printerAnswer(for ticket: BadgeTicket) async -> PrinterJobAnswer {
        await printer.answer(ticket.printJobID)
    }
    public func printerStatus(probeDevice: Bool) async throws(PrintError) -> PrinterStatus { await printer.status(queue: queue, probeDevice: probeDevice) }
    public func cancel(_ jobID: Int) async { await printer.cancel(jobID) }
}
