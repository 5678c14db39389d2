import CheckInCore

/// One part of a station (its printer, its camera) as its staff see it: a stable state word for
/// programs and the words shown on the station's screen.
public struct StationPart: Sendable, Hashable, Codable {
    /// Stable word: the printer's `off`, `ready`, `printing`, `fault`; the camera's `off`,
    /// `scanning`, or why it gives no frames (`missing`, `permission`, `unplugged`, `busy`, `unusable`).
    public var state: String
    /// What the station's screen says ("Printer: out of labels · 2 badges waiting").
    public var words: String

    public init(state: String, words: String) {
        self.state = state
        self.words = words
    }
}

/// `PUT /v1/events/{event}/stations/{deviceID}` body: a station's health, sent on each sync
/// cycle. The hub keeps the latest per event and device, with its arrival as the station's
/// last contact (``StationStatus``). Strings longer than ``UploadLimits`` and unknown fields
/// are refused (422), like every upload.
public struct StationReport: Sendable, Hashable, Codable {
    /// The station's name (`kiosk signin --station`).
    public var name: String
    /// The station's software (``CheckInCore/ProductVersion/current``).
    public var version: String
    /// Changes recorded at the station and not yet accepted by the hub.
    public var pending: Int
    /// `nil` when no station runs on the data directory that synced (a one-shot `kiosk sync`).
    public var printer: StationPart?
    public var camera: StationPart?
    /// Who is signed in at the station.
    public var staffName: String
    /// The station's clock when it sent the report (compare with the hub's to see a wrong clock).
    public var stationTime: Timestamp

    public init(name: String, version: String, pending: Int, printer: StationPart?, camera: StationPart?, staffName: String,
                stationTime: Timestamp) {
        self.name = name
        self.version = version
        self.pending = pending
        self.printer = printer
        self.camera = camera
        self.staffName = staffName
        self.stationTime = stationTime
    }
}

/// A station of an event as the hub last heard from it.
public struct StationStatus: Sendable, Hashable, Codable {
    public var deviceID: String
    /// The station's latest report.
    public var report: StationReport
    /// When that report arrived, by the hub's clock.
    public var lastContact: Timestamp
    /// No report for longer than ``StationList/silentAfterSeconds``: the station stopped
    /// syncing (switched off, network down, crashed).
    public var silent: Bool

    public init(deviceID: String, report: StationReport, lastContact: Timestamp, silent: Bool) {
        self.deviceID = deviceID
        self.report = report
        self.lastContact = lastContact
        self.silent = silent
    }
}

/// `GET /v1/events/{event}/stations` answer (organizer and support): every station that
/// reported for the event, by name then device id.
public struct StationList: Sendable, Hashable, Codable {
    public var stations: [StationStatus]
    /// Seconds without a report after which a station is ``StationStatus/silent``
    /// (`checkin-hub serve --station-silent-seconds`).
    public var silentAfterSeconds: Int64

    public init(stations: [StationStatus], silentAfterSeconds: Int64) {
        self.stations = stations
        self.silentAfterSeconds = silentAfterSeconds
    }
}
