/// A frame thresholded to dark (1) and light (0), one byte per pixel: what the finder-pattern
/// locator walks along rows, columns and diagonals.
struct BinaryImage: Sendable {
    let width: Int
    let height: Int
    /// 1 = dark, 0 = light; row-major.
    var bits: [UInt8]

    /// Local-mean thresholding on 8x8 blocks: a pixel is dark when it is darker than the mean of
    /// the `radius`-block neighbourhood around its block. Block granularity makes it one pass
    /// over the pixels plus a pass over the (64x fewer) blocks; a per-pixel window
    /// (``GrayFrame/binarizedAdaptive(window:offset:)``) costs several times that, and the
    /// locator only needs edges in the right places, not smooth thresholds.
    ///
    /// Blocks whose neighbourhood is nearly flat (less than `minimumContrast` levels between the
    /// darkest and lightest pixel) are light: paper, walls and skin would otherwise turn into
    /// noise of dark specks with as many runs as pixels.
    ///
    /// With `smoothing`, each pixel is first averaged with its right, lower and lower-right
    /// neighbours, which halves sensor noise: on the noisiest frames of the public corpus
    /// (noise sd 8-19 levels) the raw threshold leaves so many specks in 1:1:3:1:1 proportion that
    /// locating took 30-50 ms at 1280x720.
    init(thresholding frame: GrayFrame, radius: Int = 2, minimumContrast: Int = 24, smoothing: Bool = false, offset: Int = 0) {
        width = frame.width
        height = frame.height
        let shift = BlockStatistics.shift, block = BlockStatistics.size
        let w = width, h = height
        // Threshold per block: mean of the (2r+1)^2 neighbourhood less the offset, or "all
        // light" (Int.min) where the neighbourhood has no contrast.
        let window = BlockStatistics(frame).windowed(radius: radius)
        let bw = window.columns
        let thresholds = (0..<(window.columns * window.rows)).map { i in
            Int(window.highs[i]) - Int(window.lows[i]) >= minimumContrast ? window.sums[i] / window.counts[i] - offset : Int.min
        }
        var bits = [UInt8](repeating: 0, count: w * h)
        frame.pixels.withUnsafeBufferPointer { src in
            bits.withUnsafeMutableBufferPointer { dst in
                thresholds.withUnsafeBufferPointer { thresholds in
                    for y in 0..<h {
                        let row = y * w, brow = (y >> shift) * bw
                        let below = y + 1 < h ? row + w : row
                        for bx in 0..<bw {
                            let t = thresholds[brow + bx]
                            guard t != Int.min else { continue }
                            let x0 = bx << shift, x1 = min(w, x0 + block)
                            if smoothing {
                                let t4 = 4 * t
                                for x in x0..<x1 {
                                    let right = x + 1 < w ? x + 1 : x
                                    let sum = Int(src[row + x]) + Int(src[row + right]) + Int(src[below + x]) + Int(src[below + right])
                                    dst[row + x] = sum < t4 ? 1 : 0
                                }
                            } else if t > 255 {
                                for x in x0..<x1 { dst[row + x] = 1 }
                            } else if t > 0 {
                                // A byte comparison the compiler vectorizes (SIMD8's `.<` was
                                // lowered lane by lane, 3x slower than this).
                                let level = UInt8(t), pixels = src.baseAddress! + row, out = dst.baseAddress! + row
                                for x in x0..<x1 { out[x] = pixels[x] < level ? 1 : 0 }
                            }
                        }
                    }
                }
            }
        }
        self.bits = bits
    }

    init(width: Int, height: Int, bits: [UInt8]) {
        self.width = width
        self.height = height
        self.bits = bits
    }

    /// 1 when (x, y) is dark; 0 when light or outside the image.
    @inline(__always) func bit(_ x: Int, _ y: Int) -> UInt8 {
        x >= 0 && y >= 0 && x < width && y < height ? bits[y * width + x] : 0
    }
}
