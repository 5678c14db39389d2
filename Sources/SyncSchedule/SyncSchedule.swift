/// When a station pulls its roster source and pushes its outbox: a pure value, fed what happens
/// (time passes, a change is recorded, the last request was answered, the source announced a
/// change) and answering what to do next. Whoever drives it performs the actions and feeds the
/// outcome back; it holds no task, timer, lock or clock of its own, so every case is a table test.
///
/// The rules (issue 6's sync loop, made explicit):
/// - Every ``Configuration/pullInterval`` a full cycle: pull, then push, then report.
/// - A recorded change (``nudge(now:)``) pushes at once when nothing runs and nothing asked for
///   quiet; while something runs it is remembered and pushed right after.
/// - While a follow channel is live (``FollowEvent``: the source announces its changes, as the
///   hub's long-poll does), pulls come from its announcements and the interval cycle only pushes
///   and reports. pretix has no such channel: its source simply never sends follow events.
/// - A failure backs off along ``Configuration/backoff``; a `429` waits what the source asked
///   (`Retry-After`), bounded by ``Configuration/longestQuiet``. Neither is shortened by a nudge;
///   an announced change ends a failure backoff (the source answered, so it is back), never a
///   `429`'s quiet. After either, the next cycle is a full one.
/// - One request at a time: nothing new starts before the one in flight is answered.
///
/// ```swift
/// var schedule = SyncSchedule(configuration: .init(pullInterval: .seconds(5)), now: clock.now)
/// var actions = schedule.tick(now: clock.now)        // [.pull]
/// // … pull …
/// actions = schedule.answered(.ok, now: clock.now)   // [.push]
/// // … push …
/// actions = schedule.answered(.ok, now: clock.now)   // [.report, .sleep(until: now + 5 s)]
/// ```
///
/// An empty list of actions changes nothing: keep waiting for the instant last given by
/// ``Action/sleep(until:)`` (or for the answer in flight).
public struct SyncSchedule<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration, Instant: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// How often a full cycle runs (and, while following, how often the outbox is pushed
        /// and the report sent).
        public var pullInterval: Duration
        /// The waits after 1, 2, 3… consecutive failures; the last one repeats.
        public var backoff: [Duration]
        /// The longest quiet a source's `Retry-After` may impose, so a confused server cannot
        /// park the station for hours.
        public var longestQuiet: Duration

        public init(pullInterval: Duration, backoff: [Duration] = [1, 2, 4, 8, 16, 30].map { .seconds($0) },
                    longestQuiet: Duration = .seconds(300)) {
            precondition(!backoff.isEmpty, "a backoff needs at least one step")
            self.pullInterval = pullInterval
            self.backoff = backoff
            self.longestQuiet = longestQuiet
        }
    }

    /// How the source answered the pull or push in flight.
    public enum Answer: Sendable, Equatable {
        case ok
        /// `429`: wait this long (`Retry-After`), or along the backoff when it said nothing.
        case tooMany(retryAfter: Duration?)
        /// No answer, or a server error: retried after the backoff.
        case failed
        /// Nothing can go until someone acts (not signed in, no event picked): look again after
        /// an interval, without backing off.
        case waiting
    }

    /// What the source's follow channel said.
    public enum FollowEvent: Sendable, Equatable {
        /// The source has something new: pull.
        case changed
        /// The channel is live and nothing changed (its heartbeat).
        case quiet
        /// The channel is down: the interval pulls again.
        case lost
    }

    public enum Action: Sendable, Equatable {
        /// Download what changed at the source; answer with ``SyncSchedule/answered(_:now:)``.
        case pull
        /// Upload the outbox, in order; answer with ``SyncSchedule/answered(_:now:)``.
        case push
        /// Tell the source how the station is (a health report); nothing to answer.
        case report
        /// Nothing to do before this instant: call ``SyncSchedule/tick(now:)`` then (earlier
        /// inputs come as they happen).
        case sleep(until: Instant)
    }

    /// Why a round of work started: what follows it (a push after a pull, a report after a
    /// cycle) depends on it.
    enum Cycle: Sendable, Equatable {
        /// The interval's pull, push and report.
        case full
        /// The interval's push and report while a follow channel brings the pulls.
        case intervalPush
        /// A recorded change's push.
        case nudged
        /// A pull the follow channel asked for, and the push after it.
        case followed
    }

    enum Work: Sendable, Equatable {
        case pull(Cycle)
        case push(Cycle)
    }

    /// Why nothing may be sent before ``pausedUntil``.
    public enum Pause: Sendable, Equatable {
        /// Failures: backing off.
        case failures
        /// The source asked for quiet (`429`).
        case quiet
    }

    public let configuration: Configuration
    /// The pull or push whose answer is awaited.
    private(set) var inFlight: Work?
    /// When the next interval cycle is due.
    public private(set) var nextPull: Instant
    /// Nothing is sent before this instant, and why.
    public private(set) var pausedUntil: Instant?
    public private(set) var pause: Pause?
    public private(set) var consecutiveFailures = 0
    /// Whether a follow channel is live (it brings the pulls).
    public private(set) var following = false
    /// A change was recorded that no push has taken yet.
    public private(set) var pushWanted = false
    /// The follow channel announced a change that no pull has taken yet.
    public private(set) var pullWanted = false

    /// A schedule whose first cycle is due at `now`.
    public init(configuration: Configuration, now: Instant) {
        self.configuration = configuration
        nextPull = now
    }

    /// Whether a pull or push is awaiting its answer.
    public var isBusy: Bool { inFlight != nil }

    // MARK: Inputs

    /// Time passed (the last ``Action/sleep(until:)`` is over, or the driver just started).
    public mutating func tick(now: Instant) -> [Action] {
        guard inFlight == nil else { return [] }
        return next(now: now)
    }

    /// A change was recorded (a check-in, an undo, a walk-in): push it soon.
    public mutating func nudge(now: Instant) -> [Action] {
        pushWanted = true
        guard inFlight == nil, !isPaused(at: now) else { return [] }
        return next(now: now)
    }

    /// The follow channel said something.
    public mutating func followEvent(_ event: FollowEvent, now: Instant) -> [Action] {
        switch event {
        case .lost:
            following = false
            return []
        case .quiet:
            following = true
            return []
        case .changed:
            following = true
            pullWanted = true
            guard inFlight == nil else { return [] }
            if isPaused(at: now) {
                // The source answered the channel: a failure backoff is over. A 429's quiet is not.
                guard pause == .failures else { return [] }
                pausedUntil = nil
                pause = nil
            }
            return next(now: now)
        }
    }

    /// The pull or push in flight was answered.
    public mutating func answered(_ answer: Answer, now: Instant) -> [Action] {
        guard let work = inFlight else { return [] }
        inFlight = nil
        switch answer {
        case .ok:
            consecutiveFailures = 0
            switch work {
            case .pull(let cycle):
                // Whatever brought the pull, the push follows: pulled changes may settle local ones.
                return startPush(cycle)
            case .push(.full), .push(.intervalPush):
                nextPull = now.advanced(by: configuration.pullInterval)
                return [.report] + next(now: now)
            case .push(.nudged), .push(.followed):
                return next(now: now)
            }
        case .waiting:
            pushWanted = false
            pullWanted = false
            nextPull = now.advanced(by: configuration.pullInterval)
            return next(now: now)
        case .failed:
            return pause(.failures, for: backoffDelay(afterFailures: consecutiveFailures + 1), now: now)
        case .tooMany(let retryAfter):
            let wait = retryAfter.map { min(max($0, .zero), configuration.longestQuiet) }
                ?? backoffDelay(afterFailures: consecutiveFailures + 1)
            return pause(.quiet, for: wait, now: now)
        }
    }

    // MARK: Decisions

    /// What to do now that nothing is in flight.
    private mutating func next(now: Instant) -> [Action] {
        if let pausedUntil {
            if now < pausedUntil { return [.sleep(until: pausedUntil)] }
            // The pause is over: everything is retried, a full cycle.
            self.pausedUntil = nil
            pause = nil
            return startPull(.full)
        }
        // Due: a full cycle, unless a live follow channel brings the pulls and has nothing waiting.
        if now >= nextPull { return following && !pullWanted ? startPush(.intervalPush) : startPull(.full) }
        if pullWanted { return startPull(.followed) }
        if pushWanted { return startPush(.nudged) }
        return [.sleep(until: nextPull)]
    }

    private mutating func startPull(_ cycle: Cycle) -> [Action] {
        inFlight = .pull(cycle)
        pullWanted = false
        return [.pull]
    }

    private mutating func startPush(_ cycle: Cycle) -> [Action] {
        inFlight = .push(cycle)
        // Changes recorded from now on are not in this push: a nudge sets it again.
        pushWanted = false
        return [.push]
    }

    private mutating func pause(_ kind: Pause, for wait: Duration, now: Instant) -> [Action] {
        consecutiveFailures += 1
        // The full cycle after the pause pulls and pushes everything.
        pushWanted = false
        pullWanted = false
        let until = now.advanced(by: wait)
        pausedUntil = until
        pause = kind
        return [.sleep(until: until)]
    }

    private func isPaused(at now: Instant) -> Bool {
        pausedUntil.map { now < $0 } ?? false
    }

    /// The wait after `failures` consecutive failures (1 = the first); the last step repeats.
    func backoffDelay(afterFailures failures: Int) -> Duration {
        configuration.backoff[min(max(failures, 1), configuration.backoff.count) - 1]
    }
}
