import CheckInCore

/// One guest of the attendance export: who, and their admissions (accepted, not undone).
public struct AttendanceRecord: Sendable, Hashable {
    public var code: String
    public var name: String
    public var email: String
    public var company: String
    public var accessType: String
    public var walkIn: Bool
    public var revoked: Bool
    /// The first admission: when, where and by whom; `nil` for a guest who did not come.
    public var firstEntry: Timestamp?
    public var firstStation: String?
    public var firstOperator: String?
    public var entries: Int
    /// The latest exit, if any.
    public var lastExit: Timestamp?

    public init(code: String, name: String, email: String, company: String, accessType: String, walkIn: Bool, revoked: Bool,
                firstEntry: Timestamp?, firstStation: String?, firstOperator: String?, entries: Int, lastExit: Timestamp?) {
        self.code = code
        self.name = name
        self.email = email
        self.company = company
        self.accessType = accessType
        self.walkIn = walkIn
        self.revoked = revoked
        self.firstEntry = firstEntry
        self.firstStation = firstStation
        self.firstOperator = firstOperator
        self.entries = entries
        self.lastExit = lastExit
    }
}

/// One line of the hub's log: an upload and the hub's answer, an unknown-code attempt, an undo
/// request, or an organizer's action; ordered by when the hub received or took it.
public struct HubLogEntry: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case checkIn = "check-in"
        case unknownCode = "unknown code"
        case undo = "undo"
        case organizerAction = "organizer action"
    }

    public var at: Timestamp
    public var kind: Kind
    /// `accepted`, `duplicate`, `rejected`, an undo's status, or the action's kind.
    public var outcome: String
    /// The decision or refusal reason, or the action's detail.
    public var detail: String
    public var guestID: String
    public var station: String
    public var deviceID: String
    /// The operator the station named, or the person who acted.
    public var operatorName: String
    /// The account whose session uploaded (its e-mail), or acted.
    public var account: String
    /// When the station scanned it (uploads), `nil` for actions.
    public var scannedAt: Timestamp?

    public init(at: Timestamp, kind: Kind, outcome: String, detail: String, guestID: String, station: String, deviceID: String,
                operatorName: String, account: String, scannedAt: Timestamp?) {
        self.at = at
        self.kind = kind
        self.outcome = outcome
        self.detail = detail
        self.guestID = guestID
        self.station = station
        self.deviceID = deviceID
        self.operatorName = operatorName
        self.account = account
        self.scannedAt = scannedAt
    }
}
