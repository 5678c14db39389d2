import Glibc

/// Why frames stopped or never started. Each message tells the operator what to do; none
/// contains a payload or other attendee data.
public enum FrameSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No such device node (`/dev/videoN` missing: camera not plugged in, or another number).
    case noDevice(path: String)
    /// The node exists but this user may not open it.
    case permissionDenied(path: String)
    /// Another program holds the camera.
    case busy(path: String)
    /// The camera went away while frames were being read (unplugged).
    case unplugged(path: String)
    /// The node is not a camera zbar can capture from.
    case notACamera(path: String, detail: String)
    /// A raw frame stream ended in the middle of a frame.
    case truncatedStream(receivedBytes: Int, frameBytes: Int)
    /// A still file that cannot be read or decoded.
    case unreadableFile(path: String, reason: String)
    /// Another read error, with the system's message.
    case readFailed(path: String, detail: String)

    /// Maps an `errno` from opening or reading a device node to the fault the operator sees.
    public static func camera(path: String, errno code: Int32, whileStreaming: Bool = false) -> FrameSourceError {
        switch code {
        case ENOENT: whileStreaming ? .unplugged(path: path) : .noDevice(path: path)
        case EACCES, EPERM: .permissionDenied(path: path)
        case EBUSY: .busy(path: path)
        case ENODEV, ENXIO, EIO: whileStreaming ? .unplugged(path: path) : .noDevice(path: path)
        default: .readFailed(path: path, detail: String(cString: strerror(code)))
        }
    }

    /// Whether waiting and retrying can fix it (a camera plugged back in, released by another
    /// program, or group membership granted): the reconnect loop keeps trying these.
    public var isRetryable: Bool {
        switch self {
        case .noDevice, .permissionDenied, .busy, .unplugged, .readFailed: true
        case .notACamera, .truncatedStream, .unreadableFile: false
        }
    }

    public var description: String {
        switch self {
        case .noDevice(let path):
            "No camera at \(path): plug the camera in (or pick another device with --camera /dev/videoN). Manual entry still works."
        case .permissionDenied(let path):
            "Camera access required: add user kiosk to group video (\(path) cannot be opened), then restart the station."
        case .busy(let path):
            "Camera \(path) is in use by another program: close it, scanning resumes by itself."
        case .unplugged(let path):
            "Camera \(path) was disconnected: plug it back in, scanning resumes by itself."
        case .notACamera(let path, let detail):
            "\(path) is not a usable camera (\(detail)): check --camera."
        case .truncatedStream(let received, let frameBytes):
            "The frame stream ended inside a frame (\(received) of \(frameBytes) bytes): check --frame-size matches the sender."
        case .unreadableFile(let path, let reason):
            "\(path) \(reason)."
        case .readFailed(let path, let detail):
            "Reading frames from \(path) failed: \(detail)."
        }
    }
}
