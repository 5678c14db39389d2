import CheckInCore
import HubAPI
import RosterCSV

/// Events, their access types and rosters.
public protocol EventRepository: Sendable {
    func createEvent(_ event: EventSummary) async throws
    func event(id: String) async throws -> EventSummary?
    func events() async throws -> [EventSummary]
    /// The events `staff` may see (``EventAccess``): every event for organizers, the assigned ones otherwise.
    func events(visibleTo staff: StaffInfo) async throws -> [EventSummary]
    /// The event, or `nil` when it does not exist or `staff` may not see it (the routes answer
    /// both with the same 404).
    func event(id: String, visibleTo staff: StaffInfo) async throws -> EventSummary?
    func upsertAccessType(event: String, _ type: AccessType) async throws
    /// Upserts the rows by ticket code (new guests get the code as id); never touches check-ins.
    /// Imports roster rows by ticket code; with `replace`, guests of the event missing from them
    /// (not walk-ins) are revoked and listed, their check-ins untouched.
    func importRoster(event: String, rows: [RosterRow], replace: Bool) async throws -> ImportSummary
    func setRevoked(event: String, guestID: String, revoked: Bool) async throws -> Bool
    func deleteGuest(event: String, guestID: String) async throws -> Bool
}

/// Staff accounts, their event assignments and their lifecycle.
extension EventRepository {
    /// Imports roster rows by ticket code, leaving guests missing from them as they are.
    public func importRoster(event: String, rows: [RosterRow]) async throws -> ImportSummary {
        try await importRoster(event: event, rows: rows, replace: false)
    }
}

public protocol StaffRepository: Sendable {
    func addStaff(_ staff: StaffInfo, passwordHash: String) async throws
    /// The account that may sign in with `email` (compared without regard to case); `nil` for an
    /// unknown, disabled or removed one.
    func staff(email: String) async throws -> (info: StaffInfo, passwordHash: String)?
    /// Assigns the people with these e-mails to the event (idempotent); throws
    /// ``HubStoreError/unknownEvent(_:)`` or ``HubStoreError/unknownStaff(_:)`` and assigns nobody then.
    func assign(event: String, emails: [String], now: Timestamp) async throws -> [StaffInfo]
    /// Ends these people's assignments to the event; returns how many there were.
    func unassign(event: String, emails: [String]) async throws -> Int
    /// Every account not removed, with the events it is assigned to; only those assigned to
    /// `event` (and organizers, who see every event) when given.
    func staffAccounts(event: String?) async throws -> [StaffAccount]
    /// Replaces a hash made with fewer rounds, at a successful sign-in; sessions stay.
    func upgradePasswordHash(staffID: String, _ hash: String) async throws
    /// Disables, enables, removes or sets a new password (``StaffChange``); every session of the
    /// person is revoked at once (except for `.enable`, which has none). Returns the revoked
    /// sessions; throws ``HubStoreError/unknownStaff(_:)``.
    func change(staff email: String, _ change: StaffChange, now: Timestamp) async throws -> [SessionSummary]
}

/// Signed-in sessions (tokens stored only as hashes) and the stations they registered.
public protocol SessionRepository: Sendable {
    func createSession(_ session: NewSession) async throws
    /// The live session whose access token hashes to `accessHash`, or `nil`.
    func session(accessHash: String, now: Timestamp) async throws -> AuthenticatedSession?
    /// Rotates a refresh token (``RefreshRotation``): the session whose current refresh token
    /// hashes to `refreshHash` gets the new hashes, and so does the session whose *previous* one
    /// does, within `graceMilliseconds` of its last rotation. The previous token presented later
    /// revokes the session (someone copied it).
    func rotate(refreshHash: String, to tokens: NewTokens, now: Timestamp, graceMilliseconds: Int64) async throws -> AuthenticatedSession?
    func revokeSession(id: String, now: Timestamp) async throws -> Bool
    func sessions() async throws -> [SessionSummary]
    /// Binds a device id to the claiming session (``StationClaim/decide(existingSecretHash:claimSecretHash:)``);
    /// `.deviceTaken` when the id belongs to another station.
    func registerStation(_ claim: StationClaim) async throws -> StationClaim.Outcome
}

/// What stations download and upload.
public protocol SyncRepository: Sendable {
    /// The changes after `cursor`; check-ins whose scan time lies outside
    /// ``CheckInCore/PlausibleTime`` (judged by `now`) are never in a page.
    func rosterPage(event: String, after cursor: Int64, limit: Int, now: Timestamp) async throws -> RosterPage
    /// Decides and records a batch in order (``CheckInIngest``), exactly once per key with a
    /// final answer; `unknown_code` attempts go to the audit table only.
    func ingest(event: EventSummary, items: [CheckInUpload], uploader: Uploader, now: Timestamp) async throws -> [CheckInResult]
    /// Records walk-ins, idempotent by guest id (``WalkInDecider``); an unknown access type falls
    /// back to the event's default (``DefaultAccessType``) and is flagged for review.
    func ingestWalkIns(event: EventSummary, items: [WalkInUpload], uploader: Uploader, now: Timestamp) async throws -> [WalkInResult]
    /// Applies undos in order (``UndoDecider``).
    func undo(event: EventSummary, items: [UndoUpload], caller: Uploader, now: Timestamp) async throws -> [UndoResult]
}

/// What organizers read about an event.
public protocol ReportRepository: Sendable {
    func stats(event: String) async throws -> EventStats
    func conflicts(event: String) async throws -> [Conflict]
    /// Walk-ins flagged for an organizer, oldest first.
    func walkInReviews(event: String) async throws -> [WalkInReview]
    /// Flagged movements not undone (exits by someone not inside), in recording order.
    func flaggedExits(event: String) async throws -> [FlaggedExit]
    /// The newest `limit` accepted movements not undone, newest first (``RecentCheckInsSQL``).
    func recentCheckIns(event: String, limit: Int) async throws -> [RecentCheckIn]
}

/// The latest health report of each station, per event: the organizer's station list.
public protocol StationRepository: Sendable {
    /// Keeps `report` as the latest of `deviceID` for the event, received at `receivedAt` (the
    /// hub's clock: the station's last contact); replaces the one before. Throws
    /// ``HubStoreError/unknownEvent(_:)`` for an event that does not exist.
    func recordStationReport(event: String, deviceID: String, _ report: StationReport, receivedAt: Timestamp) async throws
    /// Every station that reported for the event, with its latest report, by name then device id.
    func stationContacts(event: String) async throws -> [StationContact]
}

/// A station's latest report and when it arrived.
public struct StationContact: Sendable, Hashable {
    public var deviceID: String
    public var report: StationReport
    public var receivedAt: Timestamp

    public init(deviceID: String, report: StationReport, receivedAt: Timestamp) {
        self.deviceID = deviceID
        self.report = report
        self.receivedAt = receivedAt
    }
}
