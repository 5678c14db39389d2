import CQRencode
import Foundation
@testable import QRScan

/// Frames drawn in the test from libqrencode output: scaled, rotated, noisy, low-contrast or
/// inverted, with a deterministic random generator so every run sees the same pixels.
enum QRFixtures {
    struct Options {
        var modulePixels: Double = 4
        var rotationDegrees: Double = 0
        var noise: Double = 0
        var dark: UInt8 = 20
        var light: UInt8 = 235
        var inverted = false
        var width = 640
        var height = 480
        var centerX: Double? = nil
        var centerY: Double? = nil
        var seed: UInt64 = 1
        /// Radius (px) of a box blur applied before the noise: a defocused lens.
        var blur = 0
    }

    /// The code's modules (true = dark), quiet zone not included.
    static func modules(_ payload: String) -> [[Bool]] {
        guard let code = QRcode_encodeString8bit(payload, 0, QR_ECLEVEL_M) else { fatalError("qrencode failed") }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        return (0..<width).map { y in (0..<width).map { x in code.pointee.data[y * width + x] & 1 == 1 } }
    }

    /// A frame showing `payload` as a QR code.
    static func frame(_ payload: String, _ options: Options = Options()) -> GrayFrame {
        var frame = GrayFrame(width: options.width, height: options.height, fill: options.inverted ? options.dark : options.light)
        draw(payload, into: &frame, options, noise: options.blur == 0)
        guard options.blur > 0 else { return frame }
        frame = blurred(frame, radius: options.blur)
        if options.noise > 0 {
            var rng = SeededGenerator(seed: options.seed)
            for i in frame.pixels.indices {
                frame.pixels[i] = UInt8(max(0, min(255, (Double(frame.pixels[i]) + options.noise * rng.nextGaussian()).rounded())))
            }
        }
        return frame
    }

    /// Each pixel the mean of the (2r+1)^2 square around it (clipped at the edges).
    static func blurred(_ frame: GrayFrame, radius r: Int) -> GrayFrame {
        var out = frame
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                var sum = 0, count = 0
                for yy in max(0, y - r)...min(frame.height - 1, y + r) {
                    for xx in max(0, x - r)...min(frame.width - 1, x + r) {
                        sum += Int(frame[xx, yy])
                        count += 1
                    }
                }
                out[x, y] = UInt8(sum / count)
            }
        }
        return out
    }

    /// Draws `payload` as a QR code into `frame` (centred on `centerX`, `centerY`), leaving the
    /// pixels outside the code and its quiet zone as they are; with `noise`, adds the options'
    /// noise to the whole frame.
    static func draw(_ payload: String, into frame: inout GrayFrame, _ options: Options, noise: Bool = false) {
        let grid = modules(payload)
        let n = Double(grid.count)
        var rng = SeededGenerator(seed: options.seed)
        let cx = options.centerX ?? Double(frame.width) / 2, cy = options.centerY ?? Double(frame.height) / 2
        let angle = options.rotationDegrees * .pi / 180
        let (c, s) = (cos(angle), sin(angle))
        let quiet = 4.0
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                // Back-map the pixel centre into module coordinates (code centred on cx, cy).
                let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
                let u = (c * dx + s * dy) / options.modulePixels + n / 2
                let v = (-s * dx + c * dy) / options.modulePixels + n / 2
                var value = Double(frame[x, y])
                if u >= -quiet, v >= -quiet, u < n + quiet, v < n + quiet {
                    value = Double(options.inverted ? options.dark : options.light)
                    if u >= 0, v >= 0, u < n, v < n, grid[Int(v)][Int(u)] {
                        value = Double(options.inverted ? options.light : options.dark)
                    }
                }
                if noise && options.noise > 0 { value += options.noise * rng.nextGaussian() }
                frame[x, y] = UInt8(max(0, min(255, value.rounded())))
            }
        }
    }
}

/// SplitMix64: small, fast, deterministic.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func nextGaussian() -> Double {
        let u1 = max(Double.leastNonzeroMagnitude, Double(next() >> 11) / Double(1 << 53))
        let u2 = Double(next() >> 11) / Double(1 << 53)
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}
