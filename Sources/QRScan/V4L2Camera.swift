import CZBar
import Foundation
import Glibc

/// A V4L2 camera (`/dev/videoN`) through libzbar's video capture: zbar negotiates the format
/// (UVC webcams: MJPEG or YUYV) and converts each frame to 8-bit gray.
///
/// Faults are typed (``FrameSourceError``): the node is probed with `open(2)` first, so a missing
/// node, missing permission and a busy device are told apart before zbar sees them; a capture
/// that stops while the node is gone is ``FrameSourceError/unplugged(path:)``.
public struct V4L2Camera: FrameSource {
    public let path: String
    public let requestedSize: FrameSize?
    public let statistics: FrameStatistics?

    public init(path: String, requestedSize: FrameSize? = nil, statistics: FrameStatistics? = nil) {
        self.path = path
        self.requestedSize = requestedSize
        self.statistics = statistics
    }

    public func frames() -> FrameStream {
        let path = path, size = requestedSize
        return FramePump.start(name: "kiosk.frames.camera", statistics: statistics) { emit, isCancelled in
            try Self.probe(path)
            guard let video = zbar_video_create() else { throw FrameSourceError.readFailed(path: path, detail: "out of memory") }
            defer { zbar_video_destroy(video) }
            if let size { zbar_video_request_size(video, UInt32(size.width), UInt32(size.height)) }
            guard zbar_video_open(video, path) == 0 else {
                try Self.probe(path)
                throw FrameSourceError.notACamera(path: path, detail: Self.zbarError(video))
            }
            guard zbar_negotiate_format(video, nil) == 0 else {
                throw FrameSourceError.notACamera(path: path, detail: Self.zbarError(video))
            }
            guard zbar_video_enable(video, 1) == 0 else {
                try Self.probe(path)
                throw FrameSourceError.busy(path: path)
            }
            defer { zbar_video_enable(video, 0) }
            let gray = czbar_fourcc(CChar(UInt8(ascii: "Y")), CChar(UInt8(ascii: "8")), CChar(UInt8(ascii: "0")), CChar(UInt8(ascii: "0")))
            while !isCancelled() {
                guard let image = zbar_video_next_image(video) else {
                    if isCancelled() { return }
                    try Self.probe(path, whileStreaming: true)
                    throw FrameSourceError.unplugged(path: path)
                }
                let converted = zbar_image_convert(image, gray)
                zbar_image_destroy(image)  // hands the capture buffer back to the driver
                guard let converted else { continue }
                let frame = Self.copy(converted)
                zbar_image_destroy(converted)
                if let frame, !emit(frame) { return }
            }
        }
    }

    /// Opens and closes the node to learn why it cannot be used, in the operator's terms.
    static func probe(_ path: String, whileStreaming: Bool = false) throws(FrameSourceError) {
        var info = stat()
        if stat(path, &info) != 0 { throw .camera(path: path, errno: errno, whileStreaming: whileStreaming) }
        if (info.st_mode & S_IFMT) != S_IFCHR {
            throw .notACamera(path: path, detail: "not a character device")
        }
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 { throw .camera(path: path, errno: errno, whileStreaming: whileStreaming) }
        close(fd)
    }

    private static func copy(_ image: OpaquePointer) -> GrayFrame? {
        let width = Int(zbar_image_get_width(image)), height = Int(zbar_image_get_height(image))
        let length = Int(zbar_image_get_data_length(image))
        guard width > 0, height > 0, length >= width * height, let data = zbar_image_get_data(image) else { return nil }
        let bytes = Array(UnsafeRawBufferPointer(start: data, count: width * height))
        return GrayFrame(width: width, height: height, pixels: bytes)
    }

    private static func zbarError(_ video: OpaquePointer) -> String {
        guard let message = zbar_video_error_string(video, 0) else { return "unknown zbar error" }
        return Sanitize.line(String(cString: message))
    }
}

enum Sanitize {
    /// One line of library text, without control characters.
    static func line(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
            .trimmingCharacters(in: .whitespaces)
    }
}
