/// The paths of the hub's `/v1` API, shared by the server's router and the station's client.
///
/// Every route but ``health`` and ``signIn``/``refresh`` needs `Authorization: Bearer <access token>`.
/// Paths with an event take the event id as one path component:
/// ```swift
/// HubPaths.checkIns(event: "ev_1")   // "/v1/events/ev_1/check-ins"
/// ```
public enum HubPaths {
    /// `GET`: liveness and schema version, no token needed. Answers ``HealthResponse``.
    public static let health = "/v1/health"
    /// `POST` ``SignInRequest`` → ``TokenPair``. No token needed.
    public static let signIn = "/v1/auth/sign-in"
    /// `POST` ``RefreshRequest`` → ``TokenPair``. The refresh token is rotated: the old one becomes the
    /// session's previous token, accepted once more only within the refresh grace period (see ``TokenPair``).
    public static let refresh = "/v1/auth/refresh"
    /// `POST` (empty body or ``SignOutRequest``) → 204. Revokes the caller's session and its tokens.
    public static let signOut = "/v1/auth/sign-out"
    /// `POST` ``StationRegistrationRequest`` → ``StationRegistration``: binds a device id (and its
    /// device secret) to the signed-in staff member's session; 409 when the id belongs to another station.
    public static let stations = "/v1/stations"
    /// `GET ?range=today|week|all` → ``EventList``: events the caller may access.
    public static let events = "/v1/events"
    /// Prometheus text format; needs an organizer or support token.
    public static let metrics = "/v1/metrics"

    /// `GET ?cursor=N&limit=M&wait=S` → ``RosterPage``.
    ///
    /// `wait` (seconds, 0 to ``maximumRosterWaitSeconds``, default 0) makes it a long-poll: when
    /// nothing newer than `cursor` exists, the hub holds the request until a change of the event
    /// commits (through any hub process on the same database), then answers that page at once;
    /// after `wait` seconds it answers the empty page with the same cursor. That answer is the
    /// heartbeat: send the next request right away. A hub that cannot hold the request (too many
    /// held already, or shutting down) answers the empty page at once with `Retry-After: 1`: wait
    /// that long before asking again. `wait=0` answers at once, as before.
    /// ```swift
    /// HubPaths.roster(event: "ev_1") + "?cursor=\(cursor)&wait=\(HubPaths.maximumRosterWaitSeconds)"
    /// ```
    public static func roster(event: String) -> String { "/v1/events/\(event)/roster" }
    /// `POST` ``CheckInBatch`` → ``CheckInBatchResult``. Staff and support sessions upload only for
    /// their registered device (403); organizer sessions for any device.
    public static func checkIns(event: String) -> String { "/v1/events/\(event)/check-ins" }
    /// `POST` ``WalkInBatch`` → ``WalkInBatchResult``.
    public static func walkIns(event: String) -> String { "/v1/events/\(event)/walk-ins" }
    /// `POST` ``UndoBatch`` → ``UndoBatchResult``.
    public static func undos(event: String) -> String { "/v1/events/\(event)/undos" }
    /// `GET` → ``EventStats``.
    public static func stats(event: String) -> String { "/v1/events/\(event)/stats" }
    /// `GET` → ``ConflictList`` (offline double entries, and walk-ins and exits flagged for review); organizer or support only.
    public static func conflicts(event: String) -> String { "/v1/events/\(event)/conflicts" }
    /// `GET` → ``StationList``: every station that reported for the event, with its last
    /// contact; organizer or support only.
    public static func stationReports(event: String) -> String { "/v1/events/\(event)/stations" }
    /// `PUT` ``StationReport`` → 204: the station's health on each sync. Staff and support sessions
    /// report only for their registered device (403); a hub before this route answers 404, which a
    /// station ignores.
    public static func stationReport(event: String, deviceID: String) -> String { "/v1/events/\(event)/stations/\(deviceID)" }

    /// Largest request body the hub accepts, in bytes; larger bodies get 413.
    public static let maximumBodyBytes = 4 * 1024 * 1024
    /// Most items in one upload batch; more is answered 422 (field `items`).
    public static let maximumBatchItems = 1_000
    /// Most items in one roster page (the `limit` query parameter is capped to this).
    public static let maximumPageSize = 5_000
    /// Longest `wait` of a roster long-poll, in seconds; more is answered 422 (field `wait`). Below
    /// the 30 s idle timeout of the hub and of common proxies, so a held request always ends
    /// with an answer before anything in between gives up on a silent connection.
    public static let maximumRosterWaitSeconds = 25
}
