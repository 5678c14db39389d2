/// How a code reached the station.
public enum CheckInSource: String, Sendable, Hashable, Codable, CaseIterable {
    case camera
    case scanner
    case typed
    case walkIn = "walk_in"
    case search
}

/// Whether a check-in lets the guest in or records them leaving.
public enum Direction: String, Sendable, Hashable, Codable, CaseIterable {
    case entry
    case exit
}

/// One recorded check-in: the guest, where and by whom, and when the code was scanned.
public struct CheckIn: Sendable, Hashable, Codable {
    public var key: IdempotencyKey
    public var station: String
    /// Display name of the operator signed in at the station.
    public var operatorName: String
    public var source: CheckInSource
    public var direction: Direction
    /// Answers to the ticket's questions at the door (question id → stored answer), carried to
    /// the ticket shop with the check-in; `nil` when none were asked.
    public var answers: [String: String]?

    public var guestID: String { key.guestID }
    public var deviceID: String { key.deviceID }
    public var scannedAt: Timestamp { key.scannedAt }

    public init(key: IdempotencyKey, station: String, operatorName: String, source: CheckInSource, direction: Direction = .entry,
                answers: [String: String]? = nil) {
        self.answers = answers
        self.key = key
        self.station = station
        self.operatorName = operatorName
        self.source = source
        self.direction = direction
    }

    /// Who, where and when, as shown for "already checked in".
    public var summary: PriorCheckIn {
        PriorCheckIn(by: operatorName, station: station, deviceID: deviceID, at: scannedAt)
    }
}

/// Who/where/when of an earlier check-in, shown as information ("by Alex at Door 2, 19:41").
public struct PriorCheckIn: Sendable, Hashable, Codable {
    public var by: String
    public var station: String
    public var deviceID: String
    public var at: Timestamp

    /// The device of a check-in the ticketing system made before the roster was imported.
    public static let beforeImportDevice = "before-import"

    /// Whether this is the ticketing system's check-in from before the import, not a station's.
    public var isBeforeImport: Bool { deviceID == Self.beforeImportDevice }

    /// "by Alex at Door 2", or "at pretix device 4" when no one is named (another device's
    /// check-in as the ticket shop reports it). Raw: the caller cleans it for its output.
    public var byAndWhere: String { by.isEmpty ? "at \(station)" : "by \(by) at \(station)" }

    public init(by: String, station: String, deviceID: String, at: Timestamp) {
        self.by = by
        self.station = station
        self.deviceID = deviceID
        self.at = at
    }
}
