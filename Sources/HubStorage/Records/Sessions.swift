import CheckInCore
import HubAPI
import HubCore

/// A session to create at sign-in.
public struct NewSession: Sendable {
    public var id: String
    public var staffID: String
    public var tokens: NewTokens
    public var createdAt: Timestamp
    /// When the session ends whatever is refreshed (``HubServerConfiguration/sessionLifetimeSeconds``).
    public var endsAt: Timestamp

    public static let defaultLifetimeMilliseconds: Int64 = 7 * 86_400_000

    public init(id: String, staffID: String, tokens: NewTokens, createdAt: Timestamp, endsAt: Timestamp? = nil) {
        self.id = id
        self.staffID = staffID
        self.tokens = tokens
        self.createdAt = createdAt
        self.endsAt = endsAt ?? createdAt.adding(milliseconds: Self.defaultLifetimeMilliseconds)
    }
}

/// Hashes and expiry of a fresh token pair.
public struct NewTokens: Sendable {
    public var accessHash: String
    public var accessExpires: Timestamp
    public var refreshHash: String
    public var refreshExpires: Timestamp

    public init(accessHash: String, accessExpires: Timestamp, refreshHash: String, refreshExpires: Timestamp) {
        self.accessHash = accessHash
        self.accessExpires = accessExpires
        self.refreshHash = refreshHash
        self.refreshExpires = refreshExpires
    }
}

/// The caller behind a valid access token.
public struct AuthenticatedSession: Sendable, Hashable {
    public var sessionID: String
    public var staff: StaffInfo
    /// The device whose station registration this session holds now (`nil` when it registered
    /// none, or another session took the registration over).
    public var deviceID: String?
    public var stationName: String?
    /// When the session ends at the latest, refreshed or not.
    public var endsAt: Timestamp?

    public init(sessionID: String, staff: StaffInfo, deviceID: String?, stationName: String?, endsAt: Timestamp?) {
        self.sessionID = sessionID
        self.staff = staff
        self.deviceID = deviceID
        self.stationName = stationName
        self.endsAt = endsAt
    }
}

/// One row of `checkin-hub tokens list`.
public struct SessionSummary: Sendable, Hashable, Codable {
    public var id: String
    public var staffEmail: String
    public var deviceID: String?
    public var stationName: String?
    public var createdAt: Timestamp
    public var lastUsedAt: Timestamp
    public var revoked: Bool

    public init(id: String, staffEmail: String, deviceID: String?, stationName: String?, createdAt: Timestamp, lastUsedAt: Timestamp,
                revoked: Bool) {
        self.id = id
        self.staffEmail = staffEmail
        self.deviceID = deviceID
        self.stationName = stationName
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revoked = revoked
    }
}

extension Uploader {
    /// The session's staff member, role and registered device.
    public init(_ session: AuthenticatedSession) {
        self.init(staffID: session.staff.id, role: session.staff.role, deviceID: session.deviceID)
    }
}
