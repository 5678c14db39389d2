import CheckInCore

/// The last scan as set-up needs to see it: the code, which way it came in and how fast its
/// keys arrived. The station keeps the latest one (``StationRuntime/lastScan``); the "test the
/// scanner" screen draws it. The code is the ticket's: show it (cleaned), never log it.
public struct ScannerDiagnostics: Sendable, Equatable {
    /// Which input the code came through.
    public enum Source: Sendable, Equatable {
        /// A dedicated scanner read through evdev and grabbed by the station.
        case evdev(device: String)
        /// A serial or USB CDC-ACM scanner.
        case serial(device: String)
        /// A keyboard-wedge burst on the console's terminal.
        case wedge
        /// The camera's QR decoder.
        case camera(String)
        /// Codes on standard input (headless; a wedge scanner or a pipe).
        case lines(String)

        /// For the screen: "evdev scanner /dev/input/by-id/…", "keyboard wedge on the console", …
        public var words: String {
            switch self {
            case .evdev(let device): "evdev scanner \(device)"
            case .serial(let device): "serial scanner \(device)"
            case .wedge: "keyboard wedge on the console"
            case .camera(let description): description
            case .lines(let description): description
            }
        }

        /// How the check-in records it.
        public var checkInSource: CheckInSource {
            if case .camera = self { .camera } else { .scanner }
        }
    }

    public var code: String
    public var source: Source
    /// Key gaps and duration; `nil` where the source has no keys (camera, a line on stdin).
    public var timing: ScanTiming?
    public var at: Timestamp

    public init(code: String, source: Source, timing: ScanTiming? = nil, at: Timestamp = .now()) {
        self.code = code
        self.source = source
        self.timing = timing
        self.at = at
    }
}
