import CheckInCore
import HubAPI
import HubCore

/// Staff accounts, their event assignments and their lifecycle; each change an organizer makes
/// is written with its `audit` entry in one transaction (see ``EventRepository``).
public protocol StaffRepository: Sendable {
    /// Throws ``HubStoreError/duplicateStaff(_:)`` (e-mails compared without case) and writes nothing then.
    func addStaff(_ staff: StaffInfo, passwordHash: String, audit: OrganizerAction?) async throws
    /// The account that may sign in with `email` (compared without regard to case); `nil` for an
    /// unknown, disabled or removed one.
    func staff(email: String) async throws -> (info: StaffInfo, passwordHash: String)?
    /// Assigns the people with these e-mails to the event (idempotent), one `audit` entry per
    /// assignment made now; throws ``HubStoreError/unknownEvent(_:)`` or
    /// ``HubStoreError/unknownStaff(_:)`` and assigns nobody then.
    func assign(event: String, emails: [String], now: Timestamp,
                audit: (@Sendable (StaffInfo) -> OrganizerAction)?) async throws -> [StaffInfo]
    /// Ends these people's assignments to the event, one `audit` entry per assignment ended;
    /// returns how many there were. Throws ``HubStoreError/unknownStaff(_:)`` and ends none then.
    func unassign(event: String, emails: [String], audit: (@Sendable (StaffInfo) -> OrganizerAction)?) async throws -> Int
    /// Every account not removed, with the events it is assigned to; only those assigned to
    /// `event` (and organizers, who see every event) when given.
    func staffAccounts(event: String?) async throws -> [StaffAccount]
    /// Replaces a hash made with fewer rounds, at a successful sign-in; sessions stay.
    func upgradePasswordHash(staffID: String, _ hash: String) async throws
    /// Disables, enables, removes or sets a new password (``StaffChange``); every session of the
    /// person is revoked at once (except for `.enable`, which has none). Returns the revoked
    /// sessions; throws ``HubStoreError/unknownStaff(_:)``.
    func change(staff email: String, _ change: StaffChange, now: Timestamp, audit: OrganizerAction?) async throws -> [SessionSummary]
}

extension StaffRepository {
    /// Assigns one person (the dashboard's form); `audit` is written only when the assignment is new.
    public func assign(event: String, email: String, now: Timestamp, audit: OrganizerAction) async throws -> StaffInfo {
        try await assign(event: event, emails: [email], now: now, audit: { _ in audit })[0]
    }

    /// Ends one person's assignment (the dashboard's form); whether there was one (no entry when not).
    public func unassign(event: String, email: String, audit: OrganizerAction) async throws -> Bool {
        try await unassign(event: event, emails: [email], audit: { _ in audit }) > 0
    }
}
