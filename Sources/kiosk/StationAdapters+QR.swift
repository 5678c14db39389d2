import CheckInCore
import Foundation
import QRScan
import Station

// QR decoding plugged into `kiosk run`: the QR area's ScanPipeline (frame source, libzbar on its
// own thread, payload hygiene, debouncing) as the station's scan source, for --camera and --frames.

extension StationAdapters {
    static func installQRScanning(into launch: inout LaunchOptions) {
        launch.openCamera = { device, width, height in
            PipelineScanSource(pipeline: ScanPipeline(source: V4L2Camera(path: device, requestedSize: FrameSize(width: width, height: height)),
                                                      reconnect: .standard),
                               description: "camera \(device)")
        }
        launch.openFrames = { path, width, height in
            PipelineScanSource(pipeline: ScanPipeline(source: QRScan.RawFrameSource(path: path, size: FrameSize(width: width, height: height))),
                               description: path == "-" ? "frames from stdin (\(width)×\(height))" : "frames from \(path)")
        }
    }
}

/// A ``ScanPipeline`` as the station's ``ScanSource``: scanned payloads become codes; an
/// unreadable code or a camera fault ends up in the log, and a fault without reconnect ends
/// the stream.
struct PipelineScanSource: ScanSource {
    let pipeline: ScanPipeline
    let description: String

    func codes() -> AsyncThrowingStream<ScannedCode, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ScannedCode.self)
        let pipeline = self.pipeline
        let task = Task {
            for await event in pipeline.events() {
                switch event {
                case .scanned(let payload, _, _):
                    continuation.yield(ScannedCode(payload: payload, source: .camera))
                case .unreadable, .sourceFault, .sourceRestored:
                    FileHandle.standardError.write(Data((event.jsonLine + "\n").utf8))
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
