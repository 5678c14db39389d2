/// One 8-bit grayscale frame, row-major, one byte per pixel, no padding.
///
/// Every frame source delivers these, whatever the camera sends (MJPEG, YUYV) or the file holds
/// (PGM, JPEG), so the decoder sees one format.
public struct GrayFrame: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height` luminance values, row after row.
    public var pixels: [UInt8]

    /// Wraps pixels; returns `nil` when the buffer does not hold exactly `width * height` bytes.
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width > 0, height > 0, pixels.count == width * height else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A frame filled with one gray level.
    public init(width: Int, height: Int, fill: UInt8) {
        precondition(width > 0 && height > 0, "a frame has at least one pixel")
        self.width = width
        self.height = height
        self.pixels = [UInt8](repeating: fill, count: width * height)
    }

    /// "640x480": the size key the benchmark groups timings by.
    public var sizeLabel: String { "\(width)x\(height)" }

    /// The pixel at (x, y).
    public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }
}

/// A frame size as given on the command line ("640x480").
public struct FrameSize: Sendable, Equatable, CustomStringConvertible {
    public let width: Int
    public let height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses "WxH"; both sides between 16 and 8192.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (16...8192).contains(w), (16...8192).contains(h) else { return nil }
        self.init(width: w, height: h)
    }

    public var byteCount: Int { width * height }
    public var description: String { "\(width)x\(height)" }
}
