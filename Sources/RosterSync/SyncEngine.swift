import CheckInCore
import Foundation
import HTTPTransport
import HubAPI
import KioskStore
import Logging
import SyncSchedule

/// Keeps the station's roster copy current and its outbox drained, through crashes, restarts,
/// expired sessions and a flapping network.
///
/// Everything it learns is written through ``KioskDatabase`` before it is acknowledged, so a kill
/// at any point loses nothing: a roster download resumes from the last committed cursor, and an
/// upload whose answer was lost is sent again (the hub answers a replayed key the same way).
///
/// ```swift
/// let engine = try SyncEngine(database: database)
/// let loop = Task { try await engine.run() }    // pulls every 5 s, pushes, backs off (a Service)
/// for await status in engine.statusUpdates { console.show(status) }
/// engine.nudge()                                 // after a check-in: push soon
/// loop.cancel()
/// ```
public actor SyncEngine {
    public nonisolated let database: KioskDatabase
    public nonisolated let configuration: SyncConfiguration
    let sessionFile: SessionFile
    let logger: Logger
    var session: StationSession?
    var client: HubClient?
    var monitor: ConnectivityMonitor
    var lastError: String?
    /// Seconds the hub asked to wait (`429 Retry-After`) before the next request.
    var retryAfterSeconds: Int?
    /// Until when the hub asked for quiet (`429 Retry-After`): no loop sends anything before.
    var quietUntil: ContinuousClock.Instant?
    var consecutiveFailures = 0
    var published: SyncStatus?
    /// The clock skew last written to the store (only changes are written).
    var recordedSkew: Int64??

    /// Wakes the sync loop's sleep when a change is recorded (``nudge()``).
    public nonisolated let wakeup = SyncWakeup()
    /// A pull is running: a second one waits for it (the follow loop and the interval loop
    /// would otherwise apply pages of one cursor twice).
    var pulling = false
    /// A push is under way (the interval loop's or the follow loop's): the other waits for it.
    var pushing = false
    /// The follow loop holds a long-poll open and pulls as soon as the hub has a change: the
    /// interval loop then only pushes.
    var following = false
    /// Whether the station stood still since its last pull (``catchUpAfterStall(budget:)``).
    var stallWatch = StallWatch()
    /// The follow loop's client (its requests wait at the hub, so their timeout is longer).
    var follower: HubClient?
    /// Why the session's hub has no client (an insecure address, an unusable CA file): every
    /// sync throws it until the station is configured otherwise.
    var refusal: SyncError?
    /// The station's printer and camera for its health report (``reportCondition(from:)``).
    var conditionSource: StationConditionSource?
    /// The hub answered the last health report 404 (an older hub): logged once.
    var stationReportsUnsupported = false

    /// Status changes (state, pending count, last pull/push); only the newest is kept when the
    /// consumer is slow. One consumer (the console). Ends when the engine is released.
    public nonisolated let statusUpdates: AsyncStream<SyncStatus>
    let statusContinuation: AsyncStream<SyncStatus>.Continuation

    /// - Throws: ``SyncError/sessionUnreadable(path:reason:)`` when the stored session is damaged.
    public init(database: KioskDatabase, configuration: SyncConfiguration = SyncConfiguration(),
                logger: Logger = Logger(label: "kiosk.sync")) throws(SyncError) {
        self.database = database
        self.configuration = configuration
        self.logger = logger
        sessionFile = SessionFile(database: database)
        let session = try sessionFile.load()
        self.session = session
        monitor = ConnectivityMonitor(state: session == nil ? .notConfigured : (session!.signedOut ? .signedOut : .offline),
                                      slowThreshold: configuration.slowThreshold)
        if let session, let url = try? HubClient.parseHubURL(session.hubURL) {
            do {
                client = try HubClient(baseURL: url, timeout: configuration.requestTimeout, maximumAnswerBytes: configuration.maximumAnswerBytes,
                                       policy: configuration.transport.orKept(session.transport))
            } catch {
                refusal = error
                lastError = error.description
                if case .insecureHubURL = error, !session.signedOut { monitor.refusedInsecure() }
                logger.warning("hub address refused", metadata: ["reason": "\(error)"])
            }
        }
        (statusUpdates, statusContinuation) = AsyncStream.makeStream(of: SyncStatus.self, bufferingPolicy: .bufferingNewest(1))
    }

    // MARK: Status

    /// The current state, pending count and last pull/push.
    public func status() -> SyncStatus {
        let status = try? database.status(consumeNotice: false)
        return SyncStatus(state: monitor.state, pending: status?.pending ?? 0, rejected: status?.rejected ?? 0,
                          lastPull: status?.lastPull, lastPush: status?.lastPush, lastError: lastError,
                          sessionEndsAt: session.flatMap { $0.signedOut ? nil : $0.refreshExpiresAt }, contacted: monitor.contacted)
    }

    /// The session, if signed in (tests, the console's "signed in as").
    public func currentSession() -> StationSession? { session }

    /// Publishes the status when it changed, and keeps `kiosk status`'s `sync.state` current.
    func publish() async {
        let status = status()
        guard status != published else { return }
        if status.state != published?.state {
            try? await database.setSetting(.syncState, status.state.rawValue)
        }
        published = status
        statusContinuation.yield(status)
    }

    // MARK: Loop

    deinit {
        statusContinuation.finish()
    }

    func delayAfterFailure(_ error: SyncError) -> Duration {
        if error.isWaitingForSomeone {
            // Nothing to do until someone signs in or picks an event: look again now and then.
            return configuration.pullInterval
        }
        let delay = configuration.retrySchedule.delay(afterFailures: max(consecutiveFailures, 1), retryAfterSeconds: retryAfterSeconds)
        retryAfterSeconds = nil
        return delay
    }

    /// Asks the loop to upload soon (a change was just recorded, the operator pressed "sync").
    /// Wakes an interval wait at once; during a backoff, or the quiet the hub asked for, it
    /// changes nothing (the schedule's rule).
    public nonisolated func nudge() {
        wakeup.nudge()
    }

    // MARK: One sync

    /// One pull (roster changes, a full download the first time) and one push (the whole
    /// outbox, in scan-time order).
    /// - Throws: ``SyncError``: `.unreachable` for transient trouble (retry later),
    ///   `.signedOut` when the hub ended the session (pending changes are kept), `.noEvent`,
    ///   `.notSignedIn`, `.refused`.
    /// - Parameter pushOnly: upload without pulling first (a nudge between pulls).
    @discardableResult
    public func syncNow(pushOnly: Bool = false, progress: (@Sendable (SyncProgress) -> Void)? = nil) async throws(SyncError) -> SyncReport {
        reloadSessionIfNeeded()
        var report = SyncReport()
        do {
            if !pushOnly { try await exclusivePull(into: &report, progress: progress) }
            try await exclusivePush(into: &report, progress: progress)
            report.pending = (try? database.outbox.pendingCount()) ?? 0
            // With each full cycle (not every nudged upload): the organizer's station list.
            if !pushOnly { await sendStationReport(pending: report.pending) }
            await recordOutcome(nil)
            return report
        } catch {
            await recordOutcome(error)
            throw error
        }
    }

    /// What the operator is shown after a round: the failures in a row and the last error, the
    /// clock's skew from the hub's, the status published.
    func recordOutcome(_ error: SyncError?) async {
        switch error {
        case nil: consecutiveFailures = 0
        case .unreachable, .refused, .storage, .implausibleTime: consecutiveFailures += 1
        default: break
        }
        lastError = error?.description
        await recordClockSkew()
        await publish()
    }

    /// Keeps the store's clock fault current from the hub's `Date` headers: changes recorded
    /// while this station's clock is more than a day off are marked, and the fault is shown.
    func recordClockSkew() async {
        guard let skew = client?.serverClock.skewMilliseconds else { return }
        let wrong = skew.magnitude > UInt64(PlausibleTime.maximumLeadMilliseconds)
        let recorded: Int64? = wrong ? skew : nil
        guard recordedSkew == nil || (recordedSkew! != nil) != wrong else { return }
        recordedSkew = .some(recorded)
        if wrong { logger.warning("station clock differs from the hub's", metadata: ["skew_ms": "\(skew)"]) }
        try? await database.recordClockSkew(milliseconds: skew)
    }

    /// A `kiosk signin` in another process replaces the session file: pick it up.
    func reloadSessionIfNeeded() {
        guard session == nil || session?.signedOut == true else { return }
        guard let fresh = try? sessionFile.load(), fresh != session else { return }
        session = fresh
        client = nil
        refusal = nil
        if fresh.signedOut { monitor.signedOut() } else { monitor.signedIn() }
        if let url = try? HubClient.parseHubURL(fresh.hubURL) {
            do {
                client = try makeClient(url)
            } catch {
                refusal = error
                if case .insecureHubURL = error, !fresh.signedOut { monitor.refusedInsecure() }
            }
        }
    }

    // MARK: Authorized requests

    /// Runs a request with the session's access token: refreshes it silently before expiry, and
    /// on `401` refreshes once and retries; a refused refresh signs the station out (keeping
    /// every pending change).
    func authorized<Answer: Sendable>(
        _ request: @Sendable (HubClient, String) async throws -> Answer
    ) async throws(SyncError) -> Answer {
        guard let client else { throw noClientReason }
        return try await authorized(using: client, request)
    }

    /// ``authorized(_:)`` through a given client (the follow loop's has a longer timeout).
    func authorized<Answer: Sendable>(
        using client: HubClient, _ request: @Sendable (HubClient, String) async throws -> Answer
    ) async throws(SyncError) -> Answer {
        guard let current = session else { throw .notSignedIn }
        guard !current.signedOut else { throw .signedOut }
        if current.needsRefresh() {
            do { try await refreshSession() } catch {
                if error == .signedOut { throw error }
                // A transient refresh failure: the old token may still work for a while.
            }
        }
        var refreshed = false
        var reregistered = false
        while true {
            guard let token = session?.accessToken else { throw .notSignedIn }
            // The hub asked for quiet (429 with Retry-After): no request goes out until then, not
            // even the next one of a round that was under way when the answer came.
            if let quietUntil, quietUntil > .now { throw .unreachable("the hub asked to wait before the next request") }
            let start = ContinuousClock.now
            do {
                let answer = try await request(client, token)
                monitor.answered(after: start.duration(to: .now))
                return answer
            } catch let error as HubRequestError {
                switch error {
                case .status(401, _, _):
                    monitor.answered(after: start.duration(to: .now))
                    if refreshed {
                        try await markSignedOut(reason: "the hub refused the refreshed token")
                        throw .signedOut
                    }
                    refreshed = true
                    try await refreshSession(rejected: token)
                case .status(let code, _, let retryAfter) where error.isTransient:
                    monitor.failed()
                    if code == 429 {
                        let seconds = retryAfter ?? 1
                        retryAfterSeconds = seconds
                        quietUntil = .now + configuration.retrySchedule.delay(afterFailures: 1, retryAfterSeconds: seconds)
                    }
                    throw .unreachable(error.summary)
                case .status(403, let problem?, _) where problem.type == ProblemDocument.stationNotRegisteredProblemType && !reregistered:
                    // The hub gave this station's registration to a newer session of it (a
                    // sign-in elsewhere with the same device secret): take it back, once.
                    monitor.answered(after: start.duration(to: .now))
                    reregistered = true
                    try await registerAgain(client: client, token: token)
                case .status(422, let problem?, _) where problem.type == PlausibleTime.implausibleTimeProblemType:
                    monitor.answered(after: start.duration(to: .now))
                    throw .implausibleTime(Sanitized.text(problem.detail ?? problem.title))
                case .status(let code, let problem, _):
                    monitor.answered(after: start.duration(to: .now))
                    throw .refused(status: code, detail: problem.map { Sanitized.text($0.detail ?? $0.title) } ?? "HTTP \(code)")
                case .transport, .malformed:
                    monitor.failed()
                    throw .unreachable(error.summary)
                case .untrusted(let reason):
                    monitor.failed()
                    throw .untrustedHub(Sanitized.text(reason))
                }
            } catch {
                monitor.failed()
                throw .unreachable(Sanitized.text(String(describing: error)))
            }
        }
    }

    /// Why there is no client: the session ended, its hub was refused, or there is no session.
    var noClientReason: SyncError {
        if session?.signedOut == true { return .signedOut }
        return refusal ?? .notSignedIn
    }

    /// The trust to reach the hub with: the command's or configuration's own, else what the
    /// station signed in with.
    var transport: TransportPolicy { configuration.transport.orKept(session?.transport) }

    /// A client for `url` with this engine's timeout, answer bound and transport policy.
    func makeClient(_ url: URL, timeout: Duration? = nil) throws(SyncError) -> HubClient {
        try HubClient(baseURL: url, timeout: timeout ?? configuration.requestTimeout, maximumAnswerBytes: configuration.maximumAnswerBytes,
                      policy: transport)
    }

    /// Registers this station again on the current session (its own device id and secret).
    func registerAgain(client: HubClient, token: String) async throws(SyncError) {
        let name = try mappingStoreErrors { () throws(StoreError) in try database.stationName() }
        let secret = try await mappingStoreErrors { () async throws(StoreError) in try await database.deviceSecret() }
        do {
            _ = try await client.registerStation(token: token, name: name, deviceID: database.deviceID, deviceSecret: secret)
            logger.notice("station registered again on this session")
        } catch {
            if error.isTransient { monitor.failed(); throw .unreachable(error.summary) }
            throw .refused(status: 403, detail: "station registration: \(error.summary)")
        }
    }

    /// Trades the refresh token for a new pair (the hub rotates it) and saves both at once.
    ///
    /// Under the data directory's session lock, and from the stored session: another `kiosk`
    /// process (`kiosk events` beside `kiosk run`, which share the session) may have refreshed since this
    /// one read it, and then its fresh pair is taken instead of refreshing with a token the hub
    /// already rotated away (which the hub treats as theft and answers by ending the session).
    /// - Parameter rejected: the access token the hub just refused, if any: a stored pair with
    ///   that token is not taken as fresh.
    func refreshSession(rejected: String? = nil) async throws(SyncError) {
        try await sessionFile.withLock { () async throws(SyncError) in try await refreshSessionLocked(rejected: rejected) }
    }

    private func refreshSessionLocked(rejected: String?) async throws(SyncError) {
        guard let client else { throw .notSignedIn }
        if let stored = try sessionFile.load(), let current = session, stored.sessionID == current.sessionID, stored != current {
            session = stored
            if stored.signedOut {
                monitor.signedOut()
                throw .signedOut
            }
            if stored.accessToken != rejected && !stored.needsRefresh() {
                logger.info("took the session another kiosk process refreshed")
                return
            }
        }
        guard var current = session else { throw .notSignedIn }
        let pair: TokenPair
        do {
            pair = try await client.refresh(refreshToken: current.refreshToken)
        } catch where error.isTransient {
            monitor.failed()
            throw .unreachable(error.summary)
        } catch {
            try await markSignedOut(reason: "refresh refused: \(error.summary)")
            throw .signedOut
        }
        current.accessToken = pair.accessToken
        current.accessExpiresAt = pair.accessExpiresAt
        current.refreshToken = pair.refreshToken
        current.refreshExpiresAt = pair.refreshExpiresAt
        session = current
        try sessionFile.save(current)
        logger.info("access token refreshed")
    }

    func markSignedOut(reason: String) async throws(SyncError) {
        logger.warning("signed out by the hub; pending changes are kept", metadata: ["reason": "\(reason)"])
        guard var current = session else { return }
        current.signedOut = true
        // The tokens are worthless now; keep only who was signed in and where.
        current.accessToken = ""
        current.refreshToken = ""
        session = current
        monitor.signedOut()
        try sessionFile.save(current)
        await publish()
    }
}
