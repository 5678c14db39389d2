/// The dedicated scanner (`scanner` in the configuration) as the door staff need to know it.
public enum ScannerHealth: Sendable, Equatable {
    /// No dedicated scanner configured (a wedge scanner on the console needs none).
    case off
    /// Open and reading: "evdev scanner /dev/input/by-id/… (Honeywell …)".
    case reading(String)
    /// Not reading, and what to do; it is reopened by itself when the fault clears.
    case fault(ScannerFault, fix: String)

    public init(_ error: ScannerError) {
        self = .fault(error.fault, fix: error.description)
    }
}

/// Why a scanner gives no codes.
public enum ScannerFault: String, Sendable, Equatable, Codable {
    case missing, permission, busy, unplugged, unusable
}
