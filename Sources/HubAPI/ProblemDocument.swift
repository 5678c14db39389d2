import CheckInCore

/// Every error answer of the hub: an RFC 9457 problem document (`application/problem+json`).
///
/// Status codes: 400 malformed JSON, 401 missing/expired/revoked token, 403 role too low or an
/// upload for a device the session is not registered as (see ``type``), 404 unknown event or
/// route, 409 conflicting state (a device id registered by another station, an existing event),
/// 413 body too large, 422 a field is wrong (``field`` names it; unknown fields too; a time
/// outside ``CheckInCore/PlausibleTime`` has its own ``type``), 429 too many requests (see the
/// `Retry-After` header).
public struct ProblemDocument: Sendable, Hashable, Codable, Error {
    /// A stable identifier of the kind of problem, e.g. `about:blank` or `urn:checkin-hub:invalid-field`.
    public var type: String
    /// Short summary, the same for every occurrence of the type.
    public var title: String
    public var status: Int
    /// What went wrong and what to do; never contains attendee data.
    public var detail: String?
    /// The offending field of the request (422), as a dotted path, e.g. `items.3.key.scannedAt`.
    public var field: String?

    /// 422: a field is wrong (``field`` names it).
    public static let invalidFieldProblemType = "urn:checkin-hub:invalid-field"
    /// 422: a time outside the plausible span; the same string as
    /// ``CheckInCore/PlausibleTime/implausibleTimeProblemType``. Not final: fix the clock, keep
    /// the entry and upload it again.
    public static let implausibleTimeProblemType = PlausibleTime.implausibleTimeProblemType
    /// 403: a staff or support session uploaded without a registered station (`POST /v1/stations`).
    public static let stationNotRegisteredProblemType = "urn:checkin-hub:station-not-registered"
    /// 403: an upload item names a device id other than the session's registered one.
    public static let wrongDeviceProblemType = "urn:checkin-hub:wrong-device"
    /// 409: the device id belongs to another station (registered with another secret).
    public static let deviceTakenProblemType = "urn:checkin-hub:device-taken"

    public init(type: String = "about:blank", title: String, status: Int, detail: String? = nil, field: String? = nil) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.field = field
    }
}
