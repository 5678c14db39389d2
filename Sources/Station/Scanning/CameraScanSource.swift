import CheckInCore
import QRScan

/// The QR pipeline (a frame source, libzbar on its own thread, payload hygiene, debouncing) as
/// the station's scan source: payloads become codes, and camera faults become health changes
/// that reach the status line; nothing is written to the terminal.
public struct CameraScanSource: ScanSource {
    let pipeline: ScanPipeline
    public let description: String
    public let isCamera: Bool

    public init(pipeline: ScanPipeline, description: String, isCamera: Bool = true) {
        self.pipeline = pipeline
        self.description = description
        self.isCamera = isCamera
    }

    /// A V4L2 camera, reopened with backoff after a fault (unplugged, busy, no permission).
    public static func camera(path: String, width: Int, height: Int) -> CameraScanSource {
        CameraScanSource(pipeline: ScanPipeline(source: V4L2Camera(path: path, requestedSize: FrameSize(width: width, height: height)),
                                                reconnect: .standard),
                         description: "camera \(path)")
    }

    /// Raw 8-bit grayscale frames from a file or stdin (`--frames`): ends at the end of the input.
    public static func frames(path: String, width: Int, height: Int) -> CameraScanSource {
        CameraScanSource(pipeline: ScanPipeline(source: QRScan.RawFrameSource(path: path, size: FrameSize(width: width, height: height))),
                         description: path == "-" ? "frames from stdin (\(width)×\(height))" : "frames from \(path)", isCamera: false)
    }

    public func inputs() -> AsyncStream<ScanInput> {
        let (stream, continuation) = AsyncStream.makeStream(of: ScanInput.self, bufferingPolicy: .bufferingNewest(256))
        let pipeline = self.pipeline, description = self.description, isCamera = self.isCamera
        let task = Task {
            if isCamera { continuation.yield(.camera(.scanning(description))) }
            for await event in pipeline.events() {
                switch event {
                case .scanned(let payload, _, _): continuation.yield(.code(payload, source: .camera))
                case .unreadable: continuation.yield(.unreadable)
                case .sourceFault(let error, _): continuation.yield(.camera(CameraHealth(error)))
                case .sourceRestored: continuation.yield(.camera(.scanning(description)))
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
