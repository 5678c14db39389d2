import CheckInCore

/// What a staff member may do. Ordered: an organizer may do everything support may, and so on.
public enum StaffRole: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Checks guests in at a station.
    case staff
    /// Undoes check-ins, reviews conflicts, sees metrics.
    case support
    /// Creates events, imports rosters, manages staff and tokens.
    case organizer

    private var rank: Int {
        switch self {
        case .staff: 0
        case .support: 1
        case .organizer: 2
        }
    }

    public static func < (lhs: StaffRole, rhs: StaffRole) -> Bool { lhs.rank < rhs.rank }
}

/// `POST /v1/auth/sign-in` body.
public struct SignInRequest: Sendable, Hashable, Codable {
    public var email: String
    public var password: String

    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

/// `POST /v1/auth/refresh` body.
public struct RefreshRequest: Sendable, Hashable, Codable {
    public var refreshToken: String

    public init(refreshToken: String) { self.refreshToken = refreshToken }
}

/// `POST /v1/auth/sign-out` body (optional: without it, the session of the access token ends).
public struct SignOutRequest: Sendable, Hashable, Codable {
    public var refreshToken: String?

    public init(refreshToken: String? = nil) { self.refreshToken = refreshToken }
}

/// The signed-in staff member, as the hub knows them.
public struct StaffInfo: Sendable, Hashable, Codable {
    public var id: String
    public var email: String
    /// Display name, shown at stations as the operator ("by Alex").
    public var name: String
    public var role: StaffRole

    public init(id: String, email: String, name: String, role: StaffRole) {
        self.id = id
        self.email = email
        self.name = name
        self.role = role
    }
}

/// Answer to sign-in and refresh.
///
/// The access token is short-lived and sent as `Authorization: Bearer …`; the refresh token is
/// long-lived, single-use (each refresh returns a new one and the old one becomes the session's
/// *previous* token), stored only hashed on the hub, and revocable (`checkin-hub tokens revoke`,
/// sign-out). The previous refresh token is still accepted for a short grace period after the
/// rotation (`serve --refresh-grace-seconds`, default 60 s) and answered with a fresh pair, so a
/// lost answer or two processes refreshing at once do not sign the station out; presented after
/// the grace period, it revokes the session (a copied token).
public struct TokenPair: Sendable, Hashable, Codable {
    public var accessToken: String
    /// When the access token stops working; refresh before.
    public var accessExpiresAt: Timestamp
    public var refreshToken: String
    public var refreshExpiresAt: Timestamp
    /// The session both tokens belong to (what `checkin-hub tokens list` shows).
    public var sessionID: String
    public var staff: StaffInfo
    /// The device registered on this session, once ``StationRegistrationRequest`` was sent.
    public var deviceID: String?

    public init(
        accessToken: String, accessExpiresAt: Timestamp, refreshToken: String, refreshExpiresAt: Timestamp,
        sessionID: String, staff: StaffInfo, deviceID: String? = nil
    ) {
        self.accessToken = accessToken
        self.accessExpiresAt = accessExpiresAt
        self.refreshToken = refreshToken
        self.refreshExpiresAt = refreshExpiresAt
        self.sessionID = sessionID
        self.staff = staff
        self.deviceID = deviceID
    }
}

/// `POST /v1/stations` body: registers the calling station on the caller's session.
///
/// A device id belongs to one station registration, bound to a device secret:
/// - new `deviceID` (or none: the hub issues one) → registered on this session;
/// - known `deviceID` with its secret → the registration moves to this session (the same
///   station signing in again); the session that held it can no longer upload for it;
/// - known `deviceID` with another secret or none → 409, problem type
///   ``ProblemDocument/deviceTakenProblemType``.
/// Without `deviceSecret` the hub generates one and returns it once in
/// ``StationRegistration/deviceSecret``: keep it to sign in again as the same device.
public struct StationRegistrationRequest: Sendable, Hashable, Codable {
    /// Human name of the station, e.g. "Door 2".
    public var name: String
    /// The station's own device id when it already has one (re-registration keeps it); the hub
    /// issues a new one otherwise. 1 to ``UploadLimits/deviceIDCharacters`` characters, never `/`.
    public var deviceID: String?
    /// The station's device secret (random, kept in its data directory; length
    /// ``UploadLimits/deviceSecretCharacters``). The hub stores only its hash and binds a device
    /// id to the secret of its first registration: the same station may take its registration
    /// over when it signs in again, another session may not claim the id (409).
    public var deviceSecret: String?

    public init(name: String, deviceID: String? = nil, deviceSecret: String? = nil) {
        self.name = name
        self.deviceID = deviceID
        self.deviceSecret = deviceSecret
    }
}

/// Answer to station registration: the device id the station puts into every idempotency key.
///
/// Staff and support sessions may upload only for this device id from now on (403 otherwise).
public struct StationRegistration: Sendable, Hashable, Codable {
    public var deviceID: String
    public var name: String
    /// The staff member who set the station up.
    public var registeredBy: StaffInfo
    public var registeredAt: Timestamp
    /// The device secret the hub generated, when the request carried none: sent this once (the
    /// hub keeps only its hash). Keep it with the device id; `nil` when the station sent its own.
    public var deviceSecret: String?

    public init(deviceID: String, name: String, registeredBy: StaffInfo, registeredAt: Timestamp, deviceSecret: String? = nil) {
        self.deviceID = deviceID
        self.name = name
        self.registeredBy = registeredBy
        self.registeredAt = registeredAt
        self.deviceSecret = deviceSecret
    }
}

/// `GET /v1/health` answer.
public struct HealthResponse: Sendable, Hashable, Codable {
    /// `ok` when the database answers.
    public var status: String
    /// Name of the last applied hub migration.
    public var schema: String
    /// `sqlite` or `postgres`.
    public var database: String

    public init(status: String, schema: String, database: String) {
        self.status = status
        self.schema = schema
        self.database = database
    }
}
