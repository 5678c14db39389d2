import CheckInCore
import KioskStore

/// What `kiosk badge --json` reports as `state` (a contract): the job's stored state, except that
/// a job no printer could take now is `needs_attention` (stored `held`: the station's print queue
/// prints it when a printer is back).
public enum BadgeState: String, Sendable {
    case queued, submitted, printing, printed, unconfirmed, failed, canceled
    case needsAttention = "needs_attention"
    /// The printer took it and the station gave up on it: it may have printed, or still may
    /// (``KioskStore/PrintJobState/mayHavePrinted``). Not printed again without an operator.
    case mayHavePrinted = "may_have_printed"

    public init(_ state: PrintJobState) {
        switch state {
        case .queued: self = .queued
        case .submitted: self = .submitted
        case .printing: self = .printing
        case .printed: self = .printed
        case .unconfirmed: self = .unconfirmed
        case .failed: self = .failed
        case .canceled: self = .canceled
        case .held, .awaitingOperator: self = .needsAttention
        case .mayHavePrinted: self = .mayHavePrinted
        }
    }

    /// Whether the job is done with (needs_attention is not: it waits for a printer).
    public var isFinal: Bool { ![.queued, .submitted, .printing, .needsAttention].contains(self) }
}

/// How a one-shot ``PrintSpooler`` prints.
public struct SpoolerConfiguration: Sendable {
    /// The CUPS queue badges go to.
    public var queue: String
    /// A second queue for jobs that fail or time out on the first.
    public var failoverQueue: String?
    /// The station's own limit: an offline printer leaves a job `processing` for ever.
    public var timeout: Duration
    /// How often job and printer state are asked for while a job is out.
    public var pollInterval: Duration
    public var policy: PrintPolicy

    public init(queue: String, failoverQueue: String? = nil, timeout: Duration = .seconds(20),
                pollInterval: Duration = .milliseconds(100), policy: PrintPolicy = .onAdmission) {
        self.queue = queue
        self.failoverQueue = failoverQueue
        self.timeout = timeout
        self.pollInterval = pollInterval
        self.policy = policy
    }
}

/// A change a one-shot print shows: a job's state, and the printer's condition in plain words.
public struct PrintUpdate: Sendable, Hashable {
    public var jobID: Int64
    public var state: BadgeState
    public var queue: String
    /// Why the job is in this state (failed, unconfirmed, needs_attention).
    public var reason: String?
    /// What the operator should do now, e.g. "Badge printer is out of labels: load a new roll".
    public var operatorMessage: String?
}

/// The result of one badge request.
public struct PrintOutcome: Sendable, Hashable {
    public var jobID: Int64
    public var state: BadgeState
    public var reason: String?
    public var queue: String
    public var cupsJobID: Int?
    /// Milliseconds from the request to CUPS accepting the document, and to the final state.
    public var msSubmit: Double?
    public var msFinal: Double?
}
