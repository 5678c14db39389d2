import CheckInCore
import HubAPI

/// Who may see an event: organizers every event, support and check-in staff the events they
/// are assigned to. Both stores and the routes' access layer ask this one decision.
public enum EventAccess {
    public static func visible(to role: StaffRole, assigned: Bool) -> Bool {
        role == .organizer || assigned
    }
}

/// What `checkin-hub staff disable | enable | remove | passwd` does to a person.
public enum StaffChange: Sendable, Hashable {
    /// Sign-in refused and every session revoked, until `.enable`.
    case disable
    case enable
    /// Sessions revoked, assignments ended, the e-mail freed; the row stays, so check-ins keep
    /// saying who uploaded them.
    case remove
    /// A new password (already hashed); every session is revoked, so stations sign in again.
    case password(hash: String)

    /// Whether the change ends the person's sessions.
    public var revokesSessions: Bool { self != .enable }

    /// The e-mail a removed account is left with: unique, never deliverable, never typed at sign-in.
    public static func removedEmail(staffID: String) -> String { "\(staffID)@removed.invalid" }
    /// A password hash no password verifies against.
    public static let lockedPasswordHash = "!"
}

/// One row of `checkin-hub staff list`.
public struct StaffAccount: Sendable, Hashable {
    public var info: StaffInfo
    public var disabled: Bool
    /// Events the person is assigned to, by id (organizers see every event whatever this says).
    public var events: [String]

    public init(info: StaffInfo, disabled: Bool, events: [String]) {
        self.info = info
        self.disabled = disabled
        self.events = events
    }
}
