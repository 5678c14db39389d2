import CheckInCore
import HubAPI

/// Who may undo a check-in: support staff and above anything; a staff session only what the
/// device whose registration it holds recorded, within the event's station undo time.
public enum UndoPolicy {
    public static func allows(caller: Uploader, key: IdempotencyKey, recordedAt: Timestamp, now: Timestamp, event: EventSummary) -> Bool {
        if caller.role >= .support { return true }
        guard let device = caller.deviceID, device == key.deviceID else { return false }
        // Saturating: `recordedAt` is the hub's own clock, but nothing here may trap on a stored value.
        return now.milliseconds(since: recordedAt) <= event.stationUndoMilliseconds
    }
}

extension UndoUpload {
    /// The undo a person makes on the review page: recorded as made at the dashboard, by them.
    public static func dashboard(key: IdempotencyKey, actor: StaffInfo, now: Timestamp) -> UndoUpload {
        UndoUpload(key: key, undoneAt: now, station: "dashboard", operatorName: actor.name, reason: "undone on the review page")
    }
}
