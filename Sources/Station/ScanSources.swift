import CheckInCore
import Foundation

/// Lines of text as codes: a headless station's keyboard-wedge scanner (or a pipe) types one
/// code per line. Reading blocks, so it runs on its own thread, off the cooperative pool.
public struct LineCodeSource: ScanSource {
    let handle: FileHandle
    let source: CheckInSource

    public init(handle: FileHandle = .standardInput, source: CheckInSource = .scanner) {
        self.handle = handle
        self.source = source
    }

    public var description: String { "codes from standard input" }

    /// Longer lines are no ticket code (codes have at most 256 characters): the line is dropped
    /// up to its newline rather than buffered without end.
    static let maximumLineBytes = 4096

    public func codes() -> AsyncThrowingStream<ScannedCode, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ScannedCode.self)
        let handle = self.handle, source = self.source
        let thread = Thread {
            var lines = BoundedLines(limit: Self.maximumLineBytes)
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                for line in lines.append(chunk) { continuation.yield(ScannedCode(payload: line, source: source)) }
            }
            if let rest = lines.finish() { continuation.yield(ScannedCode(payload: rest, source: source)) }
            continuation.finish()
        }
        thread.name = "kiosk.lines"
        thread.start()
        return stream
    }
}

/// Raw 8-bit grayscale frames of a fixed size from a file or stdin (`--frames FILE|-`), each
/// decoded for QR codes: `ffmpeg … -f rawvideo -pix_fmt gray - | kiosk run --frames - --frame-size 640x480`.
public struct RawFrameSource: ScanSource {
    public let path: String
    public let width: Int
    public let height: Int
    let decoder: any FrameDecoder

    public init(path: String, width: Int, height: Int, decoder: any FrameDecoder) {
        self.path = path
        self.width = width
        self.height = height
        self.decoder = decoder
    }

    public var description: String { path == "-" ? "frames from stdin (\(width)×\(height))" : "frames from \(path)" }

    public func codes() -> AsyncThrowingStream<ScannedCode, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ScannedCode.self)
        let path = self.path, size = width * height, width = self.width, height = self.height, decoder = self.decoder
        let thread = Thread {
            guard let handle = path == "-" ? FileHandle.standardInput : FileHandle(forReadingAtPath: path) else {
                continuation.finish(throwing: StationError.unusableInput("cannot open the frame file \(path)"))
                return
            }
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while buffer.count >= size {
                    let frame = [UInt8](buffer.prefix(size))
                    buffer.removeFirst(size)
                    do {
                        for payload in try decoder.decode(gray: frame, width: width, height: height) {
                            continuation.yield(ScannedCode(payload: payload, source: .camera))
                        }
                    } catch {
                        continuation.finish(throwing: error)
                        return
                    }
                }
            }
            continuation.finish()
        }
        thread.name = "kiosk.frames"
        thread.start()
        return stream
    }
}
