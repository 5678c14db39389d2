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

/// "Print 12 waiting badges?": jobs set aside because they waited longer than the station allows.
public struct StaleJobsQuestion: Sendable, Hashable {
    /// The jobs set aside, oldest first.
    public var jobIDs: [Int64]
    /// A second printer is configured, so "print them on the other printer" can be offered.
    public var otherPrinterAvailable: Bool

    public var count: Int { jobIDs.count }

    /// "Print 12 waiting badges?" / "Print 1 waiting badge?".
    public var text: String { "Print \(count) waiting badge\(count == 1 ? "" : "s")?" }
}

extension PrintJobState {
    /// The attendee's words for their badge in this state.
    public var attendeeWords: String {
        switch self {
        case .queued, .submitted, .printing: "Your badge is printing"
        case .printed: "Please take your badge"
        case .held, .awaitingOperator, .unconfirmed, .failed, .canceled: "Please collect your badge at the desk"
        }
    }
}
