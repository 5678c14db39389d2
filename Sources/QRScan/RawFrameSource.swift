import Foundation
import Glibc

/// Raw 8-bit grayscale frames of a fixed size, back to back, from stdin (`-`), a FIFO or a file:
/// what `ffmpeg … -f rawvideo -pix_fmt gray -` writes.
///
/// End of input between frames ends the stream; end of input inside a frame is
/// ``FrameSourceError/truncatedStream(receivedBytes:frameBytes:)``.
public struct RawFrameSource: FrameSource {
    public let path: String
    public let size: FrameSize
    public let statistics: FrameStatistics?

    /// - Parameters:
    ///   - path: `-` for standard input, else a FIFO or file path.
    ///   - size: every frame's width and height.
    public init(path: String, size: FrameSize, statistics: FrameStatistics? = nil) {
        self.path = path
        self.size = size
        self.statistics = statistics
    }

    public func frames() -> FrameStream {
        let path = path, size = size
        return FramePump.start(name: "kiosk.frames.raw", statistics: statistics) { emit, isCancelled in
            let fd: Int32 = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw FrameSourceError.fileFault(path: path, errno: errno) }
            defer { if path != "-" { close(fd) } }
            var buffer = [UInt8](repeating: 0, count: size.byteCount)
            while !isCancelled() {
                let received = try FileReading.fill(&buffer, from: fd, path: path, isCancelled: isCancelled)
                if received == 0 { return }
                guard received == buffer.count else {
                    if isCancelled() { return }
                    throw FrameSourceError.truncatedStream(receivedBytes: received, frameBytes: buffer.count)
                }
                guard emit(GrayFrame(width: size.width, height: size.height, pixels: buffer)!) else { return }
            }
        }
    }
}

/// Still files (PGM, JPEG) as a stream, each once, in order.
public struct StillFrameSource: FrameSource {
    public let paths: [String]
    public init(paths: [String]) { self.paths = paths }

    public func frames() -> FrameStream {
        let paths = paths
        return FramePump.start(name: "kiosk.frames.still") { emit, isCancelled in
            for path in paths where !isCancelled() {
                guard emit(try StillImage.load(path: path)) else { return }
            }
        }
    }
}

enum FileReading {
    /// Reads until `buffer` is full, the input ends, or the consumer cancels; waits in `poll`
    /// with a short timeout so a cancelled stream does not hang on a silent pipe.
    static func fill(_ buffer: inout [UInt8], from fd: Int32, path: String, isCancelled: () -> Bool) throws(FrameSourceError) -> Int {
        var filled = 0
        while filled < buffer.count {
            var pollfd = Glibc.pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pollfd, 1, 200)
            if isCancelled() { return filled }
            if ready == 0 { continue }
            if ready < 0 {
                if errno == EINTR { continue }
                throw .fileFault(path: path, errno: errno)
            }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count == 0 { return filled }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .fileFault(path: path, errno: errno)
            }
            filled += count
        }
        return filled
    }
}

extension FrameSourceError {
    /// A file or pipe that cannot be opened or read.
    static func fileFault(path: String, errno code: Int32) -> FrameSourceError {
        switch code {
        case ENOENT: .unreadableFile(path: path, reason: "does not exist")
        case EACCES, EPERM: .unreadableFile(path: path, reason: "cannot be read: permission denied")
        default: .readFailed(path: path, detail: String(cString: strerror(code)))
        }
    }
}
