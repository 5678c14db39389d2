/// How the station's print queue works its jobs.
public struct PrintQueueConfiguration: Sendable {
    /// The station's limit for one try of a job (`print_timeout_seconds`): an unreachable printer
    /// leaves a CUPS job `processing` for ever. The job is then canceled and tried elsewhere or held.
    public var printTimeout: Duration
    /// Jobs that waited longer than this (from their check-in) are not printed by themselves: the
    /// attendee may have left, and the operator is asked.
    public var staleAfter: Duration
    /// How often a job's state and its printer are asked for while the job is out.
    public var pollInterval: Duration
    /// How often the printers are asked while jobs are held.
    public var holdPollInterval: Duration
    /// How often the printers are asked while there is nothing to print (for the status line).
    public var idlePollInterval: Duration
    /// After a failed or timed-out try, the output rests this long before it gets another job
    /// (unless it is the only way forward after the rest).
    public var retryAfter: Duration
    /// Tries that a printer refused or aborted before a job is `failed` (a timeout is not counted:
    /// a printer that is down gets the job when it is back).
    public var maxFailedTries: Int
    /// At shutdown, jobs already queued are still worked for up to this long (a badge committed
    /// with the last check-in before a restart comes out now rather than at the next start);
    /// whatever is left stays queued and resumes then.
    public var shutdownDrain: Duration

    public init(printTimeout: Duration = .seconds(20), staleAfter: Duration = .seconds(600), pollInterval: Duration = .milliseconds(200),
                holdPollInterval: Duration = .seconds(1), idlePollInterval: Duration = .seconds(2), retryAfter: Duration = .seconds(10),
                maxFailedTries: Int = 3, shutdownDrain: Duration = .seconds(5)) {
        self.shutdownDrain = shutdownDrain
        self.printTimeout = printTimeout
        self.staleAfter = staleAfter
        self.pollInterval = pollInterval
        self.holdPollInterval = holdPollInterval
        self.idlePollInterval = idlePollInterval
        self.retryAfter = retryAfter
        self.maxFailedTries = maxFailedTries
    }
}
