import RosterSync

/// The hub connection as the door staff need to know it.
public enum HubHealth: Sendable, Equatable {
    /// A stand-alone station (local roster).
    case none
    /// Signed in, and no request has reached the hub or failed yet (the first moments after start).
    case connecting
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
    /// Connected to a pretix check-in list (`kiosk pretix connect`) instead of a hub: `list` is
    /// its name; `reason` why pretix did not answer the last round (`nil`: it did).
    case pretix(list: String, reason: String?)
    /// The station is connected to pretix, but its connection file cannot be read: it works on
    /// its copy and syncs nothing until connected again. `problem` says why and what to do.
    case pretixLinkUnreadable(problem: String)
    /// pretix revoked the station's device: its guests were removed (``PretixSync/end(_:at:)``).
    case pretixRevoked

    /// - Parameter standAlone: no hub was ever named to this station (no `hub` in the
    ///   configuration, no sign-in): without a session it is stand-alone, not "not signed in".
    public init(_ status: SyncStatus, standAlone: Bool = false) {
        if standAlone, status.state == .notConfigured {
            self = .none
            return
        }
        self = switch status.state {
        case .online: .online
        case .degraded: .degraded
        case .offline: status.contacted ? .offline(status.lastError) : .connecting
        case .signedOut: .signedOut
        case .notConfigured: .notSignedIn
        case .insecureRefused: .insecureRefused
        }
    }
}
