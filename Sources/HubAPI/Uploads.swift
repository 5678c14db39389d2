import CheckInCore

/// One check-in of an upload batch, exactly as the station recorded it: the domain type itself
/// (wire schema `CheckInUpload` in openapi.yaml). Device id + guest id + scan time (ms) is its
/// key: once a key has a final answer, the same key always yields the same single row and the
/// same answer, however often it is sent. `unknown_code` is not final (see ``CheckInResult``).
///
/// Refused as a whole batch (nothing recorded): a scan time outside
/// ``CheckInCore/PlausibleTime`` (422, problem type ``ProblemDocument/implausibleTimeProblemType``,
/// field `items.N.key.scannedAt`), a field longer than ``UploadLimits`` (422), a staff or support
/// session uploading for a device other than its registered one (403).
public typealias CheckInUpload = CheckIn

/// `POST /v1/events/{event}/check-ins` body: check-ins in the order the station recorded them.
/// The hub decides them in this order, so an offline sequence lands as it happened.
public struct CheckInBatch: Sendable, Hashable, Codable {
    public var items: [CheckInUpload]

    public init(items: [CheckInUpload]) { self.items = items }
}

/// The hub's answer to one uploaded item.
public enum UploadStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Recorded (or, for a replay of the same key, recorded earlier).
    case accepted
    /// The same admission seen again (another station within the tolerance window): nothing new
    /// recorded; ``CheckInResult/previous`` names the check-in it duplicates.
    case duplicate
    /// Not admitted; ``CheckInResult/reason`` says why.
    case rejected
}

/// Who/where/when of the check-in a result refers to: the domain type itself (wire schema
/// `PreviousCheckIn` in openapi.yaml).
public typealias PreviousCheckIn = PriorCheckIn

/// The answer to one ``CheckInUpload``, in the order of the batch. A final answer for a key never
/// changes: a replay gets exactly the first answer. Every answer is final except
/// `unknown_code`: the hub keeps that attempt in its audit log but not under the key, so the
/// same key sent again (after the station re-keyed it, or once the guest is on the roster) is
/// decided afresh.
public struct CheckInResult: Sendable, Hashable, Codable {
    public var key: IdempotencyKey
    public var status: UploadStatus
    /// The hub's decision (``CheckInCore/Decision/Kind``): `admitted` for accepted entries and exits,
    /// `duplicate`, or the rejection (`already_checked_in`, `unknown_code`, `revoked`,
    /// `not_valid_here`, `outside_window`, and `unpaid` / `unapproved` for a ticket whose roster
    /// row carries the ticket shop's reason).
    public var decision: Decision.Kind
    /// Human-readable reason for a rejection (sanitize before showing).
    public var reason: String?
    /// The check-in a `duplicate` or `already_checked_in` refers to.
    public var previous: PreviousCheckIn?
    /// Recorded, but listed for the organizer (``ConflictList/flaggedExits``): `exit_without_entry`
    /// for an exit by someone the hub did not have inside. Absent otherwise, and from hubs before
    /// this field existed.
    public var flag: CheckInFlag?

    public init(
        key: IdempotencyKey, status: UploadStatus, decision: Decision.Kind, reason: String? = nil, previous: PreviousCheckIn? = nil,
        flag: CheckInFlag? = nil
    ) {
        self.key = key
        self.status = status
        self.decision = decision
        self.reason = reason
        self.previous = previous
        self.flag = flag
    }
}

/// `POST /v1/events/{event}/check-ins` answer: one result per item, same order.
public struct CheckInBatchResult: Sendable, Hashable, Codable {
    public var results: [CheckInResult]

    public init(results: [CheckInResult]) { self.results = results }
}

/// One walk-in registered at a station, idempotent by its station-generated guest id: the domain
/// type itself (wire schema `WalkInUpload` in openapi.yaml).
public typealias WalkInUpload = WalkIn

/// `POST /v1/events/{event}/walk-ins` body, in the order they were registered.
public struct WalkInBatch: Sendable, Hashable, Codable {
    public var items: [WalkInUpload]

    public init(items: [WalkInUpload]) { self.items = items }
}

/// The answer to one walk-in.
///
/// A batch with an invalid walk-in is refused whole (422 naming the field, nothing recorded):
/// an empty name, a name, e-mail or company over 200 characters (``UploadLimits``), an e-mail the
/// roster importer would refuse (``CheckInCore/EmailAddress``), a code that is empty, longer
/// than ``CheckInCore/TicketCode/maximumLength`` or holds anything but printable characters
/// without spaces, or a `createdAt` outside ``CheckInCore/PlausibleTime``.
public struct WalkInResult: Sendable, Hashable, Codable {
    public var guestID: String
    /// `accepted` (also for a replay), or `rejected` with ``reason`` (e.g. the code belongs to another guest).
    public var status: UploadStatus
    public var reason: String?
    /// Another registration with the same e-mail: the walk-in is kept and flagged for the
    /// organizer, never merged silently.
    public var possibleDuplicateOf: String?
    /// The access type the hub recorded the walk-in under. Differs from the uploaded one when the
    /// hub did not know that type: the walk-in is then kept under the event's default type (the
    /// type with id `general` if the event has one, else the first by id) and flagged
    /// (``review``, listed in ``ConflictList/reviews``), never lost, since the guest was already
    /// admitted at the door. The hub never creates an access type for a walk-in.
    public var accessTypeID: String?
    /// Why the organizer should look at this walk-in (e.g. an unknown access type), if anything.
    public var review: String?

    public init(guestID: String, status: UploadStatus, reason: String? = nil, possibleDuplicateOf: String? = nil,
                accessTypeID: String? = nil, review: String? = nil) {
        self.guestID = guestID
        self.status = status
        self.reason = reason
        self.possibleDuplicateOf = possibleDuplicateOf
        self.accessTypeID = accessTypeID
        self.review = review
    }
}

/// `POST /v1/events/{event}/walk-ins` answer, same order as the batch.
public struct WalkInBatchResult: Sendable, Hashable, Codable {
    public var results: [WalkInResult]

    public init(results: [WalkInResult]) { self.results = results }
}

/// Undo of one check-in, named by its key: the domain type itself (wire schema `UndoUpload`
/// in openapi.yaml).
public typealias UndoUpload = Undo

/// `POST /v1/events/{event}/undos` body. Needs a registered station for staff and support
/// sessions (403 otherwise); an `undoneAt` outside ``CheckInCore/PlausibleTime`` refuses the
/// batch (422, ``ProblemDocument/implausibleTimeProblemType``).
public struct UndoBatch: Sendable, Hashable, Codable {
    public var items: [UndoUpload]

    public init(items: [UndoUpload]) { self.items = items }
}

/// What happened to one undo.
public enum UndoStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// The check-in no longer counts (also the answer to a replayed undo).
    case undone
    /// No check-in with this key on the hub (yet): upload the check-in first.
    case notFound = "not_found"
    /// Only support staff and above, or the station that made it (the caller's session holds
    /// that device's registration) within the event's ``EventSummary/stationUndoMilliseconds``,
    /// may undo.
    case forbidden
}

/// The answer to one ``UndoUpload``.
public struct UndoResult: Sendable, Hashable, Codable {
    public var key: IdempotencyKey
    public var status: UndoStatus
    public var reason: String?

    public init(key: IdempotencyKey, status: UndoStatus, reason: String? = nil) {
        self.key = key
        self.status = status
        self.reason = reason
    }
}

/// `POST /v1/events/{event}/undos` answer, same order as the batch.
public struct UndoBatchResult: Sendable, Hashable, Codable {
    public var results: [UndoResult]

    public init(results: [UndoResult]) { self.results = results }
}
