import CheckInCore
import KioskStore

/// What the print queue tells the station: job changes, printer health changes, and the question
/// about jobs that waited too long.
public enum PrintQueueEvent: Sendable, Hashable {
    case job(PrintJobChange)
    /// A printer's health changed (`queue` names the output).
    case printer(queue: String, health: PrinterHealth)
    /// The question for the operator changed; `nil` when it was answered or nothing waits any more.
    case staleJobs(StaleJobsQuestion?)
}

/// One job's new state, with words for the attendee and for the operator.
public struct PrintJobChange: Sendable, Hashable {
    public var jobID: Int64
    public var guestID: String
    public var state: PrintJobState
    public var queue: String
    /// For the attendee panel: "Your badge is printing", "Please collect your badge at the desk".
    public var attendeeWords: String
    /// For the operator's line: why the job is held, unconfirmed or failed, and what to do.
    public var operatorWords: String?

    public init(_ job: PrintJobRecord) {
        jobID = job.id
        guestID = job.guestID
        state = job.state
        queue = job.queue
        attendeeWords = job.state.attendeeWords
        operatorWords = job.reason
    }
}

/// "Print 12 waiting badges?": jobs waiting for the operator's word, because they waited longer
/// than the station allows, or because they may already have printed (``PrintJobState/mayHavePrinted``).
public struct StaleJobsQuestion: Sendable, Hashable {
    /// The jobs waiting for the answer, oldest first.
    public var jobIDs: [Int64]
    /// A second printer is configured, so "print them on the other printer" can be offered.
    public var otherPrinterAvailable: Bool
    /// Of ``jobIDs``, those a printer took before the station gave up on them: printing them
    /// again may give a guest a second badge.
    public var possibleDuplicates: [Int64]

    public init(jobIDs: [Int64], otherPrinterAvailable: Bool, possibleDuplicates: [Int64] = []) {
        self.jobIDs = jobIDs
        self.otherPrinterAvailable = otherPrinterAvailable
        self.possibleDuplicates = possibleDuplicates
    }

    public var count: Int { jobIDs.count }

    /// "Print 12 waiting badges?" / "Print 1 waiting badge? It may already have printed: check the printer's tray first".
    public var text: String {
        let question = "Print \(count) waiting badge\(count == 1 ? "" : "s")?"
        return possibleDuplicatesNote.map { question + " " + $0 } ?? question
    }

    /// "It may already have printed: check the printer's tray first", `nil` when none may have.
    public var possibleDuplicatesNote: String? {
        guard !possibleDuplicates.isEmpty else { return nil }
        let which = count == 1 ? "It" : possibleDuplicates.count == count ? "They" : "\(possibleDuplicates.count) of them"
        return "\(which) may already have printed: check the printer's tray first"
    }
}

extension PrintJobState {
    /// The attendee's words for their badge in this state.
    public var attendeeWords: String {
        switch self {
        case .queued, .submitted, .printing: "Your badge is printing"
        case .printed: "Please take your badge"
        case .held, .awaitingOperator, .mayHavePrinted, .unconfirmed, .failed, .canceled: "Please collect your badge at the desk"
        }
    }
}
