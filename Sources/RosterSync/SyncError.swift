import CheckInCore
import HTTPTransport
import KioskStore

/// Failures of station sync, each saying what the operator should do.
public enum SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No session: `kiosk signin` first.
    case notSignedIn
    /// The hub refused the session (revoked or expired); pending changes are kept.
    case signedOut
    /// No event selected: `kiosk use EVENT` first.
    case noEvent
    /// The hub refused the e-mail and password.
    case badCredentials
    /// The hub refused for a reason of its own (role, unknown event, bad request).
    case refused(status: Int, detail: String)
    /// The hub could not be reached or answered with garbage; the station keeps working offline.
    case unreachable(String)
    /// The hub URL is not a usable http(s) URL.
    case invalidHubURL(String)
    /// Plain `http://` to another machine, refused (``HTTPTransport/TransportPolicy``): passwords and tokens
    /// would cross the network in the clear.
    case insecureHubURL(String)
    /// The hub's HTTPS certificate did not verify (unknown CA, wrong host name, expired).
    case untrustedHub(String)
    /// The configured CA file (`ca_file`, `--ca-file`) cannot be used.
    case caFileUnreadable(path: String, reason: String)
    case sessionUnreadable(path: String, reason: String)
    case sessionUnwritable(path: String, reason: String)
    /// The hub refused a change's time (422, ``CheckInCore/PlausibleTime/implausibleTimeProblemType``):
    /// this station's clock was wrong when it was recorded. Not final: the change is held.
    case implausibleTime(String)
    /// An event switch was refused: changes are pending for another event (see the refusal).
    case pendingChanges(PendingChangesRefusal)
    /// Local storage failed (a full disk among others).
    case storage(StoreError)

    public var description: String {
        switch self {
        case .notSignedIn: "This station is not signed in to a hub: run `kiosk signin --hub URL --email E`."
        case .signedOut: "The hub ended this station's session: sign in again with `kiosk signin`; pending check-ins are kept and will sync then."
        case .noEvent: "No event selected: list them with `kiosk events` and pick one with `kiosk use EVENT`."
        case .badCredentials: "The hub refused this e-mail and password: check them and try again."
        case .refused(let status, let detail): "The hub refused the request (\(status)): \(detail)"
        case .unreachable(let reason): "Cannot reach the hub (\(reason)): check the network; the station keeps working offline."
        case .invalidHubURL(let url): "\(url) is not a hub URL: use http(s)://host[:port]."
        case .insecureHubURL(let url):
            "Insecure hub address refused: \(Sanitized.text(url)) is plain http:// to another machine, so passwords and check-ins would cross the network unencrypted. "
                + "Use https:// (give the hub's CA with ca_file / --ca-file if it has a private one), or set allow_insecure_http = true (--allow-insecure-http) on a trusted network only."
        case .untrustedHub(let reason):
            "The hub's certificate is not trusted (\(reason)): if the hub uses a private CA, give its certificate with ca_file in kiosk.conf or --ca-file; check that the hub address matches its certificate."
        case .caFileUnreadable(let path, let reason):
            "Cannot use the CA file \(Sanitized.text(path)) (\(reason)): set ca_file / --ca-file to the PEM certificate of the CA that signed the hub's certificate."
        case .sessionUnreadable(let path, let reason): "Cannot read the session in \(path) (\(reason)): sign in again with `kiosk signin`."
        case .sessionUnwritable(let path, let reason): "Cannot save the session in \(path) (\(reason)): check the data directory's permissions and free space."
        case .implausibleTime(let detail): "The hub refused a time recorded by this station (\(detail)): set the station's clock; the check-ins are kept."
        case .pendingChanges(let refusal): refusal.description
        case .storage(let error): error.description
        }
    }
}

extension SyncError {
    /// The hub's words for an address or CA file the transport policy refuses.
    public init(_ refusal: TransportRefusal) {
        switch refusal {
        case .insecureURL(let url): self = .insecureHubURL(url)
        case .caFileUnreadable(let path, let reason): self = .caFileUnreadable(path: path, reason: reason)
        }
    }

    /// Nothing goes until someone acts (signs in, picks an event): not a failure to back off from.
    var isWaitingForSomeone: Bool {
        switch self {
        // A refused address or CA file waits for the configuration to change: no backoff.
        case .notSignedIn, .signedOut, .noEvent, .insecureHubURL, .caFileUnreadable: true
        default: false
        }
    }
}
