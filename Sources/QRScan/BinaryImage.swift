/// A frame thresholded to dark (1) and light (0), one byte per pixel: what the finder-pattern
/// locator walks along rows, columns and diagonals.
struct BinaryImage: Sendable {
    let width: Int
    let height: Int
    /// 1 = dark, 0 = light; row-major.
    var bits: [UInt8]

    /// Local-mean thresholding on 8x8 blocks: a pixel is dark when it is darker than the mean of
    /// the `radius`-block neighbourhood around its block. Block granularity makes it one pass
    /// over the pixels plus a pass over the (64x fewer) blocks, about 0.6 ms at 1280x720 in a
    /// release build; a per-pixel window (``GrayFrame/binarizedAdaptive(window:offset:)``) costs
    /// 4x that, and the locator only needs edges in the right places, not smooth thresholds.
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
        let shift = 3, block = 1 << shift
        let bw = (width + block - 1) >> shift, bh = (height + block - 1) >> shift
        var sums = [Int](repeating: 0, count: bw * bh)
        var counts = [Int](repeating: 0, count: bw * bh)
        var lows = [UInt8](repeating: 255, count: bw * bh)
        var highs = [UInt8](repeating: 0, count: bw * bh)
        let w = width, h = height
        frame.pixels.withUnsafeBufferPointer { src in
            for y in 0..<h {
                let row = y * w, brow = (y >> shift) * bw
                for bx in 0..<bw {
                    let x0 = bx << shift, x1 = min(w, x0 + block)
                    var sum = 0, low = lows[brow + bx], high = highs[brow + bx]
                    for x in x0..<x1 {
                        let v = src[row + x]
                        sum += Int(v)
                        low = min(low, v)
                        high = max(high, v)
                    }
                    sums[brow + bx] += sum
                    counts[brow + bx] += x1 - x0
                    lows[brow + bx] = low
                    highs[brow + bx] = high
                }
            }
        }
        // Threshold per block: mean of the (2r+1)^2 neighbourhood, or "everything light" (-1)
        // where the neighbourhood has no contrast.
        var thresholds = [Int](repeating: -1, count: bw * bh)
        for by in 0..<bh {
            let y0 = max(0, by - radius), y1 = min(bh - 1, by + radius)
            for bx in 0..<bw {
                let x0 = max(0, bx - radius), x1 = min(bw - 1, bx + radius)
                var sum = 0, count = 0, low: UInt8 = 255, high: UInt8 = 0
                for yy in y0...y1 {
                    for xx in x0...x1 {
                        let i = yy * bw + xx
                        sum += sums[i]; count += counts[i]
                        low = min(low, lows[i]); high = max(high, highs[i])
                    }
                }
                if Int(high) - Int(low) >= minimumContrast { thresholds[by * bw + bx] = sum / count }
            }
        }
        var bits = [UInt8](repeating: 0, count: w * h)
        frame.pixels.withUnsafeBufferPointer { src in
            bits.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let row = y * w, brow = (y >> shift) * bw
                    for bx in 0..<bw {
                        let t = thresholds[brow + bx] - offset
                        guard thresholds[brow + bx] >= 0 else { continue }
                        let x0 = bx << shift, x1 = min(w, x0 + block)
                        if smoothing {
                            let below = y + 1 < h ? row + w : row
                            for x in x0..<x1 {
                                let right = x + 1 < w ? x + 1 : x
                                let sum = Int(src[row + x]) + Int(src[row + right]) + Int(src[below + x]) + Int(src[below + right])
                                if sum < 4 * t { dst[row + x] = 1 }
                            }
                        } else {
                            for x in x0..<x1 where Int(src[row + x]) < t { dst[row + x] = 1 }
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
