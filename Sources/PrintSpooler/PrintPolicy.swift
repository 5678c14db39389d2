import CheckInCore

/// The outcome states of a badge job, as stored and reported (`kiosk badge --json`'s `state`).
public enum BadgeState: String, Sendable {
    case queued, submitted, printing, printed, unconfirmed, failed, canceled
    case needsAttention = "needs_attention"

    /// Whether the spooler is done with the job (needs_attention may still change if the
    /// station keeps watching the CUPS job).
    public var isFinal: Bool { ![.queued, .submitted, .printing].contains(self) }
}

/// How the spooler is set up at the station.
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
    /// Keep following a job after it timed out (the station does; a one-shot command does not),
    /// so a badge that prints once the operator reloads labels ends up `printed`.
    public var keepWatchingAfterTimeout: Bool

    public init(queue: String, failoverQueue: String? = nil, timeout: Duration = .seconds(20),
                pollInterval: Duration = .milliseconds(100), policy: PrintPolicy = .onAdmission, keepWatchingAfterTimeout: Bool = true) {
        self.queue = queue
        self.failoverQueue = failoverQueue
        self.timeout = timeout
        self.pollInterval = pollInterval
        self.policy = policy
        self.keepWatchingAfterTimeout = keepWatchingAfterTimeout
    }
}

/// A change the station shows: a job's state, and the printer's condition in plain words.
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
