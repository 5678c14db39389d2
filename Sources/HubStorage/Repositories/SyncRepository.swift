import CheckInCore
import HubAPI
import HubCore

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
