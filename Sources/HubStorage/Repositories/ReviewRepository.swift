import CheckInCore
import HubAPI
import HubCore

/// The organizer's review page (``ReviewItem``): what the hub kept but wants a person to look
/// at, and the three things a person may do about it. Every change writes its
/// ``OrganizerAction`` in its own transaction.
public protocol ReviewRepository: Sendable {
    /// Conflicts, flagged walk-ins (possible duplicates, unknown access types, merged ones),
    /// refused uploads and flagged exits, each with its ``ReviewMark`` when someone decided;
    /// in that order, oldest first, at most `limit`.
    func reviewItems(event: String, limit: Int) async throws -> [ReviewItem]
    /// Keeps the item as it is and marks it reviewed by `actor` (audited as conflictReviewed,
    /// walkInReviewed or refusalReviewed).
    func markReviewed(event: String, kind: ReviewItem.Kind, subject: String, by actor: StaffInfo, now: Timestamp) async throws -> ReviewMarkOutcome
    /// Merges the walk-in into the registration (``MergeDecider``): the walk-in leaves the roster,
    /// its check-ins move to the registration, and stations hear of it as a ``CheckInCore/GuestMerge``
    /// with the next roster change. Audited as walkInMerged.
    func mergeWalkIn(event: String, walkIn: String, into registration: String, by actor: StaffInfo, now: Timestamp) async throws -> MergeOutcome
    /// Undoes an accepted check-in as `actor`, through the stations' own undo path (``UndoDecider``);
    /// stations hear of it with the next roster change. Audited as admissionUndone when it changed something.
    func undoAdmission(event: EventSummary, key: IdempotencyKey, by actor: StaffInfo, now: Timestamp) async throws -> UndoResult
}
