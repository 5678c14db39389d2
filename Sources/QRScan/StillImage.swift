import CTurboJPEG
import Foundation

/// Loads still frames (PGM or JPEG) for `kiosk decode` and tests.
public enum StillImage {
    /// Reads a PGM (P5/P2) or JPEG file into a grayscale frame, choosing by content, not by name.
    /// - Throws: ``FrameSourceError/unreadableFile(path:reason:)``.
    public static func load(path: String) throws(FrameSourceError) -> GrayFrame {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadableFile(path: path, reason: "cannot be read (missing, or no permission)")
        }
        return try decode([UInt8](data), path: path)
    }

    /// Decodes file bytes; `path` only names the file in errors.
    public static func decode(_ bytes: [UInt8], path: String = "frame") throws(FrameSourceError) -> GrayFrame {
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 {
            guard let frame = JPEG.decodeGray(bytes) else {
                throw .unreadableFile(path: path, reason: "is not a readable JPEG")
            }
            return frame
        }
        if bytes.count >= 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "5") || bytes[1] == UInt8(ascii: "2") {
            guard let frame = PGM.decode(bytes) else {
                throw .unreadableFile(path: path, reason: "is not a readable 8-bit PGM")
            }
            return frame
        }
        throw .unreadableFile(path: path, reason: "is neither PGM nor JPEG")
    }
}

/// Netpbm graymap, binary (P5) or ASCII (P2), 8-bit (maxval ≤ 255).
public enum PGM {
    public static func decode(_ bytes: [UInt8]) -> GrayFrame? {
        var index = 2
        func skipSpaceAndComments() {
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "#") {
                    while index < bytes.count, bytes[index] != 0x0A { index += 1 }
                } else if bytes[index] == 0x20 || (0x09...0x0D).contains(bytes[index]) {
                    index += 1
                } else { return }
            }
        }
        func number() -> Int? {
            skipSpaceAndComments()
            var value = 0, digits = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]), digits < 6 {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1; digits += 1
            }
            return digits > 0 ? value : nil
        }
        let binary = bytes[1] == UInt8(ascii: "5")
        guard let width = number(), let height = number(), let maxval = number(),
              width > 0, height > 0, (1...255).contains(maxval), width * height <= 64_000_000 else { return nil }
        var pixels: [UInt8]
        if binary {
            index += 1  // exactly one whitespace byte after maxval
            guard bytes.count - index >= width * height else { return nil }
            pixels = Array(bytes[index..<(index + width * height)])
        } else {
            pixels = []
            pixels.reserveCapacity(width * height)
            for _ in 0..<(width * height) {
                guard let value = number(), value <= maxval else { return nil }
                pixels.append(UInt8(value))
            }
        }
        if maxval != 255 {
            pixels = pixels.map { UInt8(min(255, Int($0) * 255 / maxval)) }
        }
        return GrayFrame(width: width, height: height, pixels: pixels)
    }

    /// Encodes a frame as binary PGM (P5), for tests and debugging.
    public static func encode(_ frame: GrayFrame) -> [UInt8] {
        Array("P5\n\(frame.width) \(frame.height)\n255\n".utf8) + frame.pixels
    }
}

/// JPEG (and MJPEG camera frames) to grayscale through TurboJPEG.
public enum JPEG {
    /// Decodes a JPEG to 8-bit gray, or `nil` when it is not a JPEG libjpeg-turbo can read.
    /// Uses the default (accurate integer) IDCT, so pixels match `djpeg` exactly.
    public static func decodeGray(_ bytes: [UInt8]) -> GrayFrame? {
        guard let handle = tjInitDecompress() else { return nil }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let size = UInt(bytes.count)
        let header = bytes.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, size, &width, &height, &subsampling, &colorspace)
        }
        guard header == 0, width > 0, height > 0, Int(width) * Int(height) <= 64_000_000 else { return nil }
        var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height))
        let status = bytes.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                tjDecompress2(handle, source.baseAddress, size, target.baseAddress, width, width, height,
                              Int32(TJPF_GRAY.rawValue), 0)
            }
        }
        // A warning (e.g. premature end of data) still yields pixels; only a hard error fails.
        if status != 0, tjGetErrorCode(handle) == Int32(TJERR_FATAL.rawValue) { return nil }
        return GrayFrame(width: Int(width), height: Int(height), pixels: pixels)
    }
}
