import CheckInCore
import HubAPI

/// The latest health report of each station, per event: the organizer's station list.
public protocol StationRepository: Sendable {
    /// Keeps `report` as the latest of `deviceID` for the event, received at `receivedAt` (the
    /// hub's clock: the station's last contact); replaces the one before. Throws
    /// ``HubStoreError/unknownEvent(_:)`` for an event that does not exist.
    func recordStationReport(event: String, deviceID: String, _ report: StationReport, receivedAt: Timestamp) async throws
    /// Every station that reported for the event, with its latest report, by name then device id.
    func stationContacts(event: String) async throws -> [StationContact]
}

/// A station's latest report and when it arrived.
public struct StationContact: Sendable, Hashable {
    public var deviceID: String
    public var report: StationReport
    public var receivedAt: Timestamp

    public init(deviceID: String, report: StationReport, receivedAt: Timestamp) {
        self.deviceID = deviceID
        self.report = report
        self.receivedAt = receivedAt
    }
}
