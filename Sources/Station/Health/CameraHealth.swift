import QRScan

/// The camera as the door staff need to know it.
public enum CameraHealth: Sendable, Equatable {
    /// No camera configured: codes come from the keyboard or a scanner.
    case off
    /// Frames arrive from this source ("camera /dev/video0").
    case scanning(String)
    /// No frames, and what to do; scanning resumes by itself when the fault clears.
    case fault(CameraFault, fix: String)

    /// The fault as the operator sees it, from the frame source's error.
    public init(_ error: FrameSourceError) {
        let fault: CameraFault = switch error {
        case .noDevice: .missing
        case .permissionDenied: .permission
        case .unplugged: .unplugged
        case .busy: .busy
        case .notACamera, .truncatedStream, .unreadableFile, .readFailed: .unusable
        }
        self = .fault(fault, fix: error.description)
    }
}

/// Why a camera gives no frames.
public enum CameraFault: String, Sendable, Equatable, Codable {
    case missing, permission, unplugged, busy, unusable
}
