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

    /// `GET ?cursor=N&limit=M` → ``RosterPage``.
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

    /// Largest request body the hub accepts, in bytes; larger bodies get 413.
    public static let maximumBodyBytes = 4 * 1024 * 1024
    /// Most items in one upload batch; more is answered 422 (field `items`).
    public static let maximumBatchItems = 1_000
    /// Most items in one roster page (the `limit` query parameter is capped to this).
    public static let maximumPageSize = 5_000
}
