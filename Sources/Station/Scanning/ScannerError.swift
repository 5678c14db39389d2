import Foundation

/// Why the dedicated scanner is not reading, each saying what the staff should do. The station
/// keeps trying to open it (with backoff); every fault clears by itself once its cause does.
public enum ScannerError: Error, Sendable, Equatable, CustomStringConvertible {
    case missing(path: String)
    case permissionDenied(path: String)
    /// Another program grabbed the device exclusively.
    case busy(path: String)
    case unplugged(path: String)
    /// Neither an input event device nor a serial port.
    case notAScanner(path: String)
    case failed(path: String, operation: String, errno: Int32)

    /// From the `errno` of opening or reading the device.
    init(errno code: Int32, path: String, operation: String) {
        switch code {
        case ENOENT, ENXIO: self = .missing(path: path)
        case EACCES, EPERM: self = .permissionDenied(path: path)
        case EBUSY: self = .busy(path: path)
        case ENODEV, EIO: self = .unplugged(path: path)
        default: self = .failed(path: path, operation: operation, errno: code)
        }
    }

    public var fault: ScannerFault {
        switch self {
        case .missing: .missing
        case .permissionDenied: .permission
        case .busy: .busy
        case .unplugged: .unplugged
        case .notAScanner, .failed: .unusable
        }
    }

    public var description: String {
        switch self {
        case .missing(let path):
            "Scanner \(path) is not there: plug it in (it is read as soon as it appears), or check `scanner` in the configuration (ls -l /dev/input/by-id lists scanners and keyboards)."
        case .permissionDenied(let path):
            "No permission to read the scanner \(path): put its vendor:product (lsusb) in the udev rule from Kiosk/99-checkin-kiosk.rules, install it and plug the scanner in again."
        case .busy(let path):
            "Another program holds the scanner \(path) (fuser -v \(path) names it): stop that program; the station takes the scanner over by itself."
        case .unplugged(let path):
            "Scanner \(path) was disconnected: plug it back in, scanning resumes by itself."
        case .notAScanner(let path):
            "\(path) is neither a keyboard event device nor a serial port: set `scanner` to /dev/input/by-id/…-event-kbd or /dev/ttyACM0."
        case .failed(let path, let operation, let code):
            "Scanner \(path): \(operation) failed (\(String(cString: strerror(code)))): plug the scanner in again; if that does not help, check `scanner` in the configuration."
        }
    }
}
