import CheckInCore
import HubAPI

/// The hub's decision for one uploaded undo, shared by both stores (like ``CheckInIngest``):
/// who may undo is ``UndoPolicy``'s; an undo of a check-in undone before is answered `undone`
/// again without changing it (uploads are replayed).
public enum UndoDecider {
    /// The accepted check-in the undo names, as stored.
    public struct Recorded: Sendable {
        /// When the hub recorded it (its own clock: the station undo time counts from there).
        public var recordedAt: Timestamp
        public var undone: Bool

        public init(recordedAt: Timestamp, undone: Bool) {
            self.recordedAt = recordedAt
            self.undone = undone
        }
    }

    public struct Decision: Sendable, Equatable {
        public var result: UndoResult
        /// Whether the check-in is to be marked undone now (and its change sent to stations).
        public var markUndone: Bool
    }

    public static func decide(_ item: UndoUpload, recorded: Recorded?, caller: Uploader, event: EventSummary, now: Timestamp) -> Decision {
        guard let recorded else {
            return Decision(result: UndoResult(key: item.key, status: .notFound, reason: "no accepted check-in with this key"), markUndone: false)
        }
        guard UndoPolicy.allows(caller: caller, key: item.key, recordedAt: recorded.recordedAt, now: now, event: event) else {
            return Decision(
                result: UndoResult(
                    key: item.key, status: .forbidden,
                    reason: "only support staff, or the station that made it within \(event.stationUndoMilliseconds / 1000) s, may undo"),
                markUndone: false)
        }
        return Decision(result: UndoResult(key: item.key, status: .undone), markUndone: !recorded.undone)
    }
}
