import CheckInCore
import HubAPI

/// The hub's decision for one uploaded walk-in: a pure function of the upload and what the
/// database holds, shared by both stores so SQLite and PostgreSQL decide identically (like
/// ``CheckInIngest``). The store reads ``Facts`` inside its write transaction (the event lock on
/// PostgreSQL), one item after the other, so an earlier walk-in of the batch is a fact for the next.
public enum WalkInDecider {
    public struct Facts: Sendable {
        /// What the hub recorded for this guest id before (a replay gets the same answer).
        public var recorded: WalkInResult?
        /// Whether another guest of the event holds the walk-in's ticket code.
        public var codeTaken: Bool
        /// The event's access type ids.
        public var accessTypes: Set<String>
        /// The first other registration with the walk-in's e-mail (compared without case).
        public var sameEmail: String?

        public init(recorded: WalkInResult?, codeTaken: Bool, accessTypes: Set<String>, sameEmail: String?) {
            self.recorded = recorded
            self.codeTaken = codeTaken
            self.accessTypes = accessTypes
            self.sameEmail = sameEmail
        }
    }

    public enum Decision: Sendable, Equatable {
        /// Answer without writing anything.
        case answer(WalkInResult)
        /// Insert the guest and its walk-in row under `accessTypeID`, then answer `result`.
        case record(accessTypeID: String, review: String?, possibleDuplicateOf: String?, result: WalkInResult)
    }

    public static func decide(_ item: WalkInUpload, facts: Facts) -> Decision {
        if let recorded = facts.recorded { return .answer(recorded) }
        if facts.codeTaken {
            return .answer(WalkInResult(guestID: item.guestID, status: .rejected, reason: "ticket code already belongs to another guest"))
        }
        guard let type = DefaultAccessType.resolve(requested: item.accessTypeID, known: facts.accessTypes) else {
            return .answer(WalkInResult(guestID: item.guestID, status: .rejected, reason: "the event has no access types yet; import its roster first"))
        }
        // Flagged, never merged: the walk-in was admitted at the door; an organizer decides.
        let twin = item.email.isEmpty ? nil : facts.sameEmail
        return .record(
            accessTypeID: type.id, review: type.review, possibleDuplicateOf: twin,
            result: WalkInResult(guestID: item.guestID, status: .accepted, possibleDuplicateOf: twin, accessTypeID: type.id, review: type.review))
    }
}
