import ArgumentParser
import Foundation
import QRScan

struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan codes from a camera or a raw frame pipe; print one JSON line per debounced scan event.",
        discussion: """
            Until `kiosk run` wires the camera in, this is the camera pipeline on its own: \
            `ffmpeg -i in.mp4 -f rawvideo -pix_fmt gray - | kiosk scan --frames - --frame-size 640x480`. \
            Events: {"event":"scan","payload":…}, {"event":"unreadable","reason":…}, \
            {"event":"source_fault","message":…,"retrying":…}, {"event":"source_restored"}. \
            A camera that fails is retried with backoff unless --no-reconnect is given. \
            Exit status: 0 when the frames ended, 65 for a truncated stream or unusable input, \
            69 when a camera fault ends the run (--no-reconnect).
            """)

    @Option(help: "Raw 8-bit grayscale frames: '-' for stdin, or a FIFO/file path.")
    var frames: String?

    @Option(help: "Size of each raw frame, WxH (with --frames).")
    var frameSize: String?

    @Option(help: "A V4L2 camera device, e.g. /dev/video0.")
    var camera: String?

    @Option(help: "The same code within this many seconds is one scan.")
    var debounceSeconds: Double = 3

    @Flag(help: "Stop at the first camera fault instead of retrying with backoff.")
    var noReconnect = false

    func validate() throws {
        guard (frames == nil) != (camera == nil) else { throw ValidationError("Give exactly one of --frames or --camera") }
        if frames != nil {
            guard let frameSize else { throw ValidationError("--frames needs --frame-size WxH, e.g. 640x480") }
            guard FrameSize(parsing: frameSize) != nil else { throw ValidationError("--frame-size must be WxH, e.g. 640x480") }
        }
        guard debounceSeconds >= 0, debounceSeconds <= 3600 else { throw ValidationError("--debounce-seconds must be 0…3600") }
    }

    func run() async throws {
        CommandOutput.bootstrapLogging()
        let source: any FrameSource
        if let frames, let size = frameSize.flatMap(FrameSize.init(parsing:)) {
            source = RawFrameSource(path: frames, size: size)
        } else {
            source = V4L2Camera(path: camera ?? "/dev/video0")
        }
        let pipeline = ScanPipeline(
            source: source, debounceWindow: .milliseconds(Int(debounceSeconds * 1000)),
            reconnect: camera != nil && !noReconnect ? .standard : nil)
        var lastFault: FrameSourceError?
        for await event in pipeline.events() {
            // Unbuffered: a consumer reading the pipe sees each event as it happens.
            FileHandle.standardOutput.write(Data((event.jsonLine + "\n").utf8))
            switch event {
            case .sourceFault(let fault, _):
                lastFault = fault
                CommandOutput.printError("kiosk: \(fault.description)")
            case .sourceRestored: lastFault = nil
            default: break
            }
        }
        if let lastFault {
            throw ExitCode(lastFault.isRetryable ? 69 : ExitStatus.badInput)
        }
    }
}
