import CheckInCore

/// One line of the dashboard's feed of the latest check-ins: who, where, when, how.
public struct RecentCheckIn: Sendable, Hashable {
    public var guestName: String
    public var station: String
    public var operatorName: String
    /// How the code reached the station (`camera`, `scanner`, `typed`, `walk_in`, `search`).
    public var source: String
    /// `entry` or `exit`.
    public var direction: String
    public var scannedAt: Timestamp

    public init(guestName: String, station: String, operatorName: String, source: String, direction: String, scannedAt: Timestamp) {
        self.guestName = guestName
        self.station = station
        self.operatorName = operatorName
        self.source = source
        self.direction = direction
        self.scannedAt = scannedAt
    }
}
