/// How the station sees the hub, as the console and `kiosk status` show it.
public enum ConnectivityState: String, Sendable, Equatable, CaseIterable {
    /// Answers arrive, quickly.
    case online
    /// Answers are slow (over 3 s) or the last one or two requests failed: decisions stay
    /// offline-first (the local roster decides), sync keeps trying.
    case degraded
    /// Three consecutive failures, or no hub reachable.
    case offline
    /// The session ended (refused refresh, revoked): pending changes are kept for the next sign-in.
    case signedOut = "signed_out"
    /// No hub configured: a stand-alone station.
    case notConfigured = "not_configured"
    /// The hub's address is plain `http://` to another machine and `allow_insecure_http` is not
    /// set: nothing is sent until the address is `https://` (see ``HTTPTransport/TransportPolicy``).
    case insecureRefused = "insecure_hub_refused"

    /// Whether the station should decide from its local copy without waiting for the hub.
    public var offlineFirst: Bool { self != .online }
}

/// The value-type state machine behind ``ConnectivityState``: feed it every request's outcome.
public struct ConnectivityMonitor: Sendable, Equatable {
    /// Answers slower than this make the link `degraded`.
    public var slowThreshold: Duration
    /// This many consecutive failures make it `offline`.
    public var failuresForOffline: Int
    public private(set) var consecutiveFailures = 0
    public private(set) var state: ConnectivityState
    /// A request got an answer or failed since start: until then `offline` only means "not
    /// reached yet" (the station says it is connecting).
    public private(set) var contacted = false

    public init(state: ConnectivityState = .offline, slowThreshold: Duration = .seconds(3), failuresForOffline: Int = 3) {
        self.state = state
        self.slowThreshold = slowThreshold
        self.failuresForOffline = failuresForOffline
    }

    /// A request got an answer from the hub after `elapsed`.
    public mutating func answered(after elapsed: Duration) {
        contacted = true
        consecutiveFailures = 0
        guard state != .signedOut else { return }
        state = elapsed > slowThreshold ? .degraded : .online
    }

    /// A request failed for a transient reason (timeout, connection refused, 5xx, garbage).
    public mutating func failed() {
        contacted = true
        consecutiveFailures += 1
        guard state != .signedOut else { return }
        state = consecutiveFailures >= failuresForOffline ? .offline : .degraded
    }

    /// The session ended; only a new sign-in leaves this state.
    public mutating func signedOut() { state = .signedOut }

    /// The hub's address was refused as insecure; only a new client (a new sign-in, a restart
    /// with another configuration) leaves this state.
    public mutating func refusedInsecure() { state = .insecureRefused }

    /// A new session started (the sign-in itself was an answer from the hub).
    public mutating func signedIn() {
        contacted = true
        state = .online
        consecutiveFailures = 0
    }
}
