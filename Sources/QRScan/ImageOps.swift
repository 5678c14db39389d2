/// The image transforms the decoder's retries use. Plain loops over `[UInt8]`: each is a single
/// pass (two for binarization), a few milliseconds at 1280x720 in a release build.
extension GrayFrame {
    /// Half width and height, each output pixel the mean of a 2x2 block. Blur, noise and
    /// screen moiré average out, and zbar has a quarter of the pixels to scan.
    public func downscaled2x() -> GrayFrame {
        let w = width / 2, h = height / 2
        guard w >= 16, h >= 16 else { return self }
        var out = [UInt8](repeating: 0, count: w * h)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let row0 = 2 * y * width, row1 = row0 + width
                    for x in 0..<w {
                        let s = Int(src[row0 + 2 * x]) + Int(src[row0 + 2 * x + 1])
                            + Int(src[row1 + 2 * x]) + Int(src[row1 + 2 * x + 1])
                        dst[y * w + x] = UInt8((s + 2) >> 2)
                    }
                }
            }
        }
        return GrayFrame(width: w, height: h, pixels: out)!
    }

    /// Local-mean thresholding: a pixel becomes black when darker than the mean of the
    /// `window`-sized square around it minus `offset`. Rescues low contrast, glare and shadow,
    /// where zbar's own global-ish edge detection loses modules.
    public func binarizedAdaptive(window: Int = 0, offset: Int = 4) -> GrayFrame {
        let radius = max(4, (window > 0 ? window : min(width, height) / 16) / 2)
        // Integral image, (width+1) x (height+1), sums fit in Int.
        let iw = width + 1
        var integral = [Int](repeating: 0, count: iw * (height + 1))
        var out = [UInt8](repeating: 0, count: width * height)
        pixels.withUnsafeBufferPointer { src in
            integral.withUnsafeMutableBufferPointer { sum in
                for y in 0..<height {
                    var rowSum = 0
                    for x in 0..<width {
                        rowSum += Int(src[y * width + x])
                        sum[(y + 1) * iw + x + 1] = sum[y * iw + x + 1] + rowSum
                    }
                }
            }
            integral.withUnsafeBufferPointer { sum in
                out.withUnsafeMutableBufferPointer { dst in
                    for y in 0..<height {
                        let y0 = max(0, y - radius), y1 = min(height, y + radius + 1)
                        for x in 0..<width {
                            let x0 = max(0, x - radius), x1 = min(width, x + radius + 1)
                            let total = sum[y1 * iw + x1] - sum[y0 * iw + x1] - sum[y1 * iw + x0] + sum[y0 * iw + x0]
                            let count = (y1 - y0) * (x1 - x0)
                            dst[y * width + x] = Int(src[y * width + x]) * count < total - offset * count ? 0 : 255
                        }
                    }
                }
            }
        }
        return GrayFrame(width: width, height: height, pixels: out)!
    }

    /// Light and dark swapped (dark-mode tickets).
    public func inverted() -> GrayFrame {
        GrayFrame(width: width, height: height, pixels: pixels.map { 255 &- $0 })!
    }

    /// Doubles width and height by pixel replication, for codes whose modules are under 2 px.
    public func upscaled2x() -> GrayFrame {
        let w = width * 2, h = height * 2
        var out = [UInt8](repeating: 0, count: w * h)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    for x in 0..<width {
                        let v = src[y * width + x]
                        let o = 2 * y * w + 2 * x
                        dst[o] = v; dst[o + 1] = v; dst[o + w] = v; dst[o + w + 1] = v
                    }
                }
            }
        }
        return GrayFrame(width: w, height: h, pixels: out)!
    }

    /// The part of the frame inside `rect` (clipped to the frame), or `nil` when too small.
    public func cropped(to rect: PixelRect) -> GrayFrame? {
        let x0 = max(0, rect.x), y0 = max(0, rect.y)
        let x1 = min(width, rect.x + rect.width), y1 = min(height, rect.y + rect.height)
        guard x1 - x0 >= 32, y1 - y0 >= 32 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity((x1 - x0) * (y1 - y0))
        for y in y0..<y1 { out.append(contentsOf: pixels[(y * width + x0)..<(y * width + x1)]) }
        return GrayFrame(width: x1 - x0, height: y1 - y0, pixels: out)
    }
}

extension GrayFrame {
    /// Sensor noise, roughly its standard deviation in gray levels: the median absolute
    /// difference between horizontally neighbouring pixels, sampled on every 8th row. Edges
    /// are a small share of any frame, so the median sees the noise, not the picture (for
    /// Gaussian noise of deviation s the median difference is about 0.95 s).
    public func noiseLevel() -> Int {
        var histogram = [Int](repeating: 0, count: 256)
        var samples = 0
        pixels.withUnsafeBufferPointer { src in
            var y = 4
            while y < height {
                let row = y * width
                for x in 1..<width {
                    histogram[abs(Int(src[row + x]) - Int(src[row + x - 1]))] += 1
                }
                samples += width - 1
                y += 8
            }
        }
        var seen = 0
        for (level, count) in histogram.enumerated() {
            seen += count
            if seen * 2 >= samples { return level }
        }
        return 255
    }
}

extension GrayFrame {
    /// Unsharp masking against the 3x3 mean: each pixel moves away from its neighbourhood by
    /// `amount`/4 of the difference. Restores some of the edge contrast defocus takes away,
    /// enough for zbar's edge detector to find module edges again.
    func sharpened(amount: Int = 8) -> GrayFrame {
        guard width >= 3, height >= 3 else { return self }
        var out = pixels
        let w = width
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 1..<(height - 1) {
                    let up = (y - 1) * w, row = y * w, down = (y + 1) * w
                    // Column sums of three rows, slid along the row.
                    var left = Int(src[up]) + Int(src[row]) + Int(src[down])
                    var middle = Int(src[up + 1]) + Int(src[row + 1]) + Int(src[down + 1])
                    for x in 1..<(w - 1) {
                        let right = Int(src[up + x + 1]) + Int(src[row + x + 1]) + Int(src[down + x + 1])
                        let v = Int(src[row + x])
                        let sharpened = v + amount * (9 * v - (left + middle + right)) / 36
                        dst[row + x] = UInt8(clamping: sharpened)
                        left = middle
                        middle = right
                    }
                }
            }
        }
        return GrayFrame(width: width, height: height, pixels: out)!
    }
}
