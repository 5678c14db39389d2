import RosterSync

/// The hub connection as the door staff need to know it.
public enum HubHealth: Sendable, Equatable {
    /// A stand-alone station (local roster).
    case none
    case online
    /// Slow answers or a failure or two: decisions stay local, sync keeps trying.
    case degraded
    case offline(String?)
    /// The hub ended the session: pending changes are kept until someone signs in again.
    case signedOut
    /// A hub is configured but nobody signed in.
    case notSignedIn
    /// The hub's address is plain `http://` to another machine: refused until it is `https://`
    /// or `allow_insecure_http = true`.
    case insecureRefused

    public init(_ status: SyncStatus) {
        self = switch status.state {
        case .online: .online
        case .degraded: .degraded
        case .offline: .offline(status.lastError)
        case .signedOut: .signedOut
        case .notConfigured: .notSignedIn
        case .insecureRefused: .insecureRefused
        }
    }
}
