import CheckInCore
import OperatorConsole

/// What a scan source delivers to the station.
public enum ScanInput: Sendable, Equatable {
    /// A code read by a device (camera frame, scanner line).
    case code(String, source: CheckInSource)
    /// A code was seen but is unusable (too long, control characters, invalid UTF-8): the
    /// attendee is told "unreadable", its content is never shown.
    case unreadable
    /// The camera's condition changed (a fault, or frames again).
    case camera(CameraHealth)
    /// A code from the dedicated scanner, with the device it came from and its key timing.
    case scan(ScannerDiagnostics)
    /// The dedicated scanner's condition changed (a fault, or reading again).
    case scanner(ScannerHealth)
    /// A headless caller's answers to a ticket's questions at the door (``HeadlessAnswerLine``):
    /// the code presented again with them.
    case answered(code: String, answers: [String: String])
}

/// Something that reads codes until it ends or the station stops: the camera pipeline, a
/// scanner's lines, a pipe of frames.
public protocol ScanSource: Sendable {
    /// The device in words, for the status line ("camera /dev/video0", "frames from stdin").
    var description: String { get }
    /// Whether this source is a camera (its health shows on the status line).
    var isCamera: Bool { get }
    /// Inputs as they arrive. The end of the stream (end of a frame file) ends scanning.
    func inputs() -> AsyncStream<ScanInput>
}
