import CheckInCore
import GRDB

/// What an audit line records.
enum AuditAction: String, Sendable {
    /// A scan or typed code, whatever the decision.
    case attempt
    case walkIn = "walkin"
    case undo
    case reprint
    /// A local guest became the hub's (same code): its id changed.
    case rekey
    /// An organizer merged a walk-in into a registration at the hub.
    case merge
    case hubRejected = "hub_rejected"
    case discardPending = "discard_pending"
}

/// Where an audited action came from: a check-in source, or the station's sync.
enum AuditSource: Sendable {
    case station(CheckInSource)
    case sync

    var rawValue: String {
        switch self {
        case .station(let source): source.rawValue
        case .sync: "sync"
        }
    }
}

/// A line of `audit_log`: who did what, where and when. The code and the detail are guest
/// data, stored sealed (0008_encrypted_guest_data.sql); every line is written here.
struct AuditEntry: Sendable {
    var at: Timestamp
    var deviceID: String
    var station: String
    var operatorName: String
    var source: AuditSource
    var action: AuditAction
    var code: String?
    var guestID: String?
    var decision: Decision.Kind?
    var detail: String?

    init(at: Timestamp, deviceID: String, station: String, operatorName: String, source: AuditSource, action: AuditAction,
         code: String? = nil, guestID: String? = nil, decision: Decision.Kind? = nil, detail: String? = nil) {
        self.at = at
        self.deviceID = deviceID
        self.station = station
        self.operatorName = operatorName
        self.source = source
        self.action = action
        self.code = code
        self.guestID = guestID
        self.decision = decision
        self.detail = detail
    }

    /// A line for what the station's sync did (no station name, no operator).
    static func sync(_ action: AuditAction, at: Timestamp, deviceID: String, guestID: String? = nil, detail: String) -> AuditEntry {
        AuditEntry(at: at, deviceID: deviceID, station: "", operatorName: "sync", source: .sync, action: action, guestID: guestID, detail: detail)
    }

    func insert(_ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO audit_log (at, device_id, station, operator, source, action, code, guest_id, decision, detail)
            VALUES (?, ?, ?, ?, ?, ?, kiosk_seal(?), ?, ?, kiosk_seal(?))
            """, arguments: [at.milliseconds, deviceID, station, operatorName, source.rawValue, action.rawValue, code, guestID,
                             decision?.rawValue, detail])
    }
}
