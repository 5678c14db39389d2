/// What only the running station knows about itself for its health report: its printer and its
/// camera as the staff see them. The sync engine adds the rest (device, name, version, pending
/// changes, who is signed in, the time) and sends it on each sync cycle.
///
/// The station's composition provides it through a ``StationConditionSource`` (RosterSync knows
/// nothing of the station's health types):
/// ```swift
/// await engine.reportCondition { StationCondition(printer: .init(state: "ready", words: "printer ready"), camera: nil) }
/// ```
public struct StationCondition: Sendable, Equatable {
    public struct Part: Sendable, Equatable {
        /// Stable word (`ready`, `fault`, `scanning`…).
        public var state: String
        /// What the station's screen says.
        public var words: String

        public init(state: String, words: String) {
            self.state = state
            self.words = words
        }
    }

    /// `nil`: not known (no station runs on this data directory).
    public var printer: Part?
    public var camera: Part?

    public init(printer: Part?, camera: Part?) {
        self.printer = printer
        self.camera = camera
    }

    /// A one-shot command with no station running: nothing known of printer or camera.
    public static let unknown = StationCondition(printer: nil, camera: nil)
}

/// Reads the station's condition when a report is about to be sent (never blocks on I/O).
public typealias StationConditionSource = @Sendable () async -> StationCondition
