import CheckInCore
import HTTPTransport

/// Why a call to pretix did not give the answer the station needs, each saying what the operator
/// should do. Answers that are decisions (a refused scan, an unknown nonce) are not errors: the
/// calls return them as values.
public enum PretixError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The station is not initialized as a pretix device yet: nothing but `device/initialize` can be asked.
    case notInitialized
    /// pretix revoked this device ("Device access has been revoked."): its token is dead for good.
    case deviceRevoked
    /// pretix refused the device's token for another reason (rolled, or another server).
    case unauthorized(String)
    /// The device's security profile does not allow this (pretix's 403, or a call the station
    /// does not make for this profile).
    case notAllowedByProfile(profile: String, what: String)
    /// pretix refused the initialization token (already used, unknown, expired).
    case initializationRefused(String)
    /// pretix refused the request for a reason of its own.
    case refused(status: Int, detail: String)
    /// pretix asked for quiet (`429`), for this many seconds when it said.
    case tooManyRequests(retryAfterSeconds: Int?)
    /// pretix failed (`5xx`).
    case serverError(status: Int)
    /// pretix could not be reached (connection refused, timed out, no network).
    case unreachable(String)
    /// An answer that is not what pretix's API promises (not JSON, wrong fields, too large, a
    /// next page elsewhere): refused, nothing of it is used.
    case malformed(String)
    /// pretix's HTTPS certificate did not verify.
    case untrusted(String)
    /// Plain `http://` to another machine, refused: the device token would cross the network in the clear.
    case insecureURL(String)
    /// The CA file given for pretix cannot be used.
    case caFileUnreadable(path: String, reason: String)
    /// Not a pretix address.
    case invalidServerURL(String)

    /// Worth retrying later with the same request (pretix's trouble, the network, garbage).
    public var isTransient: Bool {
        switch self {
        case .tooManyRequests, .serverError, .unreachable, .malformed, .untrusted: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .notInitialized:
            "This station is not connected to pretix: connect it with the device token (or QR code) pretix shows for a new device."
        case .deviceRevoked:
            "pretix has revoked this station's device access: the event's guest data is removed from the station; "
                + "to go on, create a new device in pretix and connect again with its token."
        case .unauthorized(let detail):
            "pretix refused this station's device token (\(Sanitized.text(detail))): connect the station to pretix again with a new device token."
        case .notAllowedByProfile(let profile, let what):
            "pretix's security profile \"\(Sanitized.text(profile))\" of this device does not allow \(what): "
                + "in pretix, give the device the profile \"pretixSCAN\" (or one that allows it), then connect again."
        case .initializationRefused(let detail):
            "pretix refused the device token (\(Sanitized.text(detail))): a token works once; create a new device in pretix (or reset this one) and use its new token."
        case .refused(let status, let detail):
            "pretix refused the request (HTTP \(status)): \(Sanitized.text(detail))"
        case .tooManyRequests(let seconds):
            "pretix asked the station to slow down" + (seconds.map { " for \($0) s" } ?? "") + "; the station retries then and keeps working offline."
        case .serverError(let status):
            "pretix failed (HTTP \(status)); the station retries and keeps working offline: check pretix's logs if it persists."
        case .unreachable(let reason):
            "Cannot reach pretix (\(Sanitized.text(reason))): check the network and pretix's address; the station keeps working offline."
        case .malformed(let reason):
            "pretix's answer was refused (\(Sanitized.text(reason))): nothing of it was used. Check that the address is your pretix server (not a proxy page) and that it runs a supported pretix version."
        case .untrusted(let reason):
            "pretix's certificate is not trusted (\(Sanitized.text(reason))): if pretix uses a private CA, give its certificate as the CA file; check that the address matches the certificate."
        case .insecureURL(let url):
            "Insecure pretix address refused: \(Sanitized.text(url)) is plain http:// to another machine, so the device token would cross the network unencrypted. "
                + "Use https://, or allow insecure HTTP on a trusted network only."
        case .caFileUnreadable(let path, let reason):
            "Cannot use the CA file \(Sanitized.text(path)) (\(reason)): give the PEM certificate of the CA that signed pretix's certificate."
        case .invalidServerURL(let url):
            "\(Sanitized.text(url)) is not a pretix address: use https://host[/path], as the device's set-up page in pretix shows it."
        }
    }
}

extension PretixError {
    /// pretix's words for an address or CA file the transport policy refuses.
    init(_ refusal: TransportRefusal) {
        switch refusal {
        case .insecureURL(let url): self = .insecureURL(url)
        case .caFileUnreadable(let path, let reason): self = .caFileUnreadable(path: path, reason: reason)
        }
    }

    /// pretix's words for a request that got no usable answer.
    init(_ failure: TransportFailure) {
        switch failure {
        case .unreachable(let reason): self = .unreachable(reason)
        case .untrusted(let reason): self = .untrusted(reason)
        case .tooLarge(let limit): self = .malformed("an answer larger than \(limit) bytes")
        }
    }
}
