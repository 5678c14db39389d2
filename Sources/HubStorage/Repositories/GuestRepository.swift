import CheckInCore
import HubAPI
import HubCore

/// The dashboard's guest lookup, guest page and the changes an organizer makes there, each
/// audited in the change's own transaction.
public protocol GuestRepository: Sendable {
    /// Guests of the event (not deleted) matching `query`, by name then id, at most `limit`.
    func findGuests(event: String, matching query: GuestQuery, limit: Int) async throws -> [GuestRecord]
    /// The guest, not deleted, or `nil`.
    func guestRecord(event: String, id: String) async throws -> GuestRecord?
    /// The guest's movements and refused attempts, newest first, at most `limit`.
    func guestHistory(event: String, guestID: String, limit: Int) async throws -> [GuestMovement]
    /// The organizer actions taken on the guest (manual check-ins, revocations, restorations),
    /// newest first, at most `limit`.
    func guestActions(event: String, guestID: String, limit: Int) async throws -> [OrganizerAction]
    /// Revokes or restores the ticket (stations learn it with the next roster change) and writes
    /// `action` in the same transaction; false (and nothing written) for an unknown or deleted guest.
    func setRevoked(event: String, guestID: String, revoked: Bool, action: OrganizerAction?) async throws -> Bool
    /// Decides and records one check-in exactly as an upload (``SyncRepository/ingest(event:items:uploader:now:)``),
    /// and writes the action `audit` makes of the answer in the same transaction.
    func manualCheckIn(event: EventSummary, _ item: CheckInUpload, uploader: Uploader, now: Timestamp,
                       audit: @escaping @Sendable (CheckInResult) -> OrganizerAction) async throws -> CheckInResult
}
