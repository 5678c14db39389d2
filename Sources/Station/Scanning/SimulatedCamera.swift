import Foundation
import QRScan

/// A camera for machines without one (CI, a demo laptop), behind the real camera's protocol
/// (``QRScan/FrameSource``): `--camera sim:DIR`. The directory plays the device:
///
/// - `DIR/state` holds `present` (the default), `missing`, `permission`, `busy` or `unplugged`:
///   what opening or reading the device meets, as ``QRScan/V4L2Camera`` reports it;
/// - `DIR/frame.pgm`, while it exists, is the picture in front of the lens (a grey frame
///   otherwise), delivered about ten times a second.
///
/// Tests change the files to unplug the camera or hold a ticket up; the pipeline above it
/// (decoder, debouncer, reconnect with backoff) is the real one.
public struct SimulatedCamera: FrameSource {
    public let directory: URL
    let size: FrameSize

    public init(directory: URL, size: FrameSize = FrameSize(width: 640, height: 480)) {
        self.directory = directory
        self.size = size
    }

    var path: String { directory.path }

    func state() -> String {
        ((try? String(contentsOf: directory.appendingPathComponent("state"), encoding: .utf8)) ?? "present")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func fault(for state: String, streaming: Bool) -> FrameSourceError? {
        switch state {
        case "missing": streaming ? .unplugged(path: path) : .noDevice(path: path)
        case "permission": .permissionDenied(path: path)
        case "busy": .busy(path: path)
        case "unplugged": streaming ? .unplugged(path: path) : .noDevice(path: path)
        default: nil
        }
    }

    public func frames() -> FrameStream {
        let (stream, continuation) = FrameStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        let camera = self
        let task = Task {
            if let fault = camera.fault(for: camera.state(), streaming: false) {
                continuation.finish(throwing: fault)
                return
            }
            let grey = GrayFrame(width: camera.size.width, height: camera.size.height, fill: 200)
            while !Task.isCancelled {
                if let fault = camera.fault(for: camera.state(), streaming: true) {
                    continuation.finish(throwing: fault)
                    return
                }
                let picture = FileManager.default.contents(atPath: camera.directory.appendingPathComponent("frame.pgm").path)
                    .flatMap { PGM.decode([UInt8]($0)) }
                continuation.yield(picture ?? grey)
                try? await Task.sleep(for: .milliseconds(100))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

extension CameraScanSource {
    /// `--camera sim:DIR`: the simulated camera with the real pipeline and reconnect policy.
    public static func simulated(directory: URL) -> CameraScanSource {
        CameraScanSource(pipeline: ScanPipeline(source: SimulatedCamera(directory: directory),
                                                reconnect: ReconnectPolicy(initial: .milliseconds(200), maximum: .seconds(1))),
                         description: "simulated camera")
    }
}
