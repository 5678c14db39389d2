/// Cutting a candidate's region out of a frame at the scale zbar reads best.
extension GrayFrame {
    /// The part of the frame inside `rect` (clipped), each output pixel the mean of a
    /// `shrink` x `shrink` block, light and dark swapped when `invert`. One pass over the region:
    /// cropping, scaling and inverting separately would copy it three times.
    /// - Returns: `nil` when the clipped region is under 24 output pixels on a side.
    func region(_ rect: PixelRect, shrink: Int = 1, invert: Bool = false) -> (frame: GrayFrame, origin: (x: Int, y: Int))? {
        let k = max(1, shrink)
        let x0 = max(0, rect.x), y0 = max(0, rect.y)
        let x1 = min(width, rect.x + rect.width), y1 = min(height, rect.y + rect.height)
        let w = (x1 - x0) / k, h = (y1 - y0) / k
        guard w >= 24, h >= 24 else { return nil }
        var out = [UInt8](repeating: 0, count: w * h)
        let area = k * k, flip = invert ? 255 : 0, stride = width
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                if k == 1 {
                    for y in 0..<h {
                        let s = (y0 + y) * stride + x0, d = y * w
                        for x in 0..<w { dst[d + x] = UInt8(abs(flip - Int(src[s + x]))) }
                    }
                    return
                }
                for y in 0..<h {
                    let top = (y0 + y * k) * stride + x0
                    for x in 0..<w {
                        var sum = 0
                        for dy in 0..<k {
                            let row = top + dy * stride + x * k
                            for dx in 0..<k { sum += Int(src[row + dx]) }
                        }
                        dst[y * w + x] = UInt8(abs(flip - (sum + area / 2) / area))
                    }
                }
            }
        }
        return (GrayFrame(width: w, height: h, pixels: out)!, (x0, y0))
    }

    /// Twice the width and height, bilinear: for modules under 2 px, where zbar's edge detector
    /// cannot tell a module from a transition. Smoother than pixel doubling, which keeps the
    /// staircase edges of a rotated code.
    func upscaledBilinear2x() -> GrayFrame {
        let w = width * 2, h = height * 2
        var out = [UInt8](repeating: 0, count: w * h)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    // Output pixel centres sit at quarter positions between input centres.
                    let sy = max(0, (y - 1) >> 1), ny = min(height - 1, sy + 1)
                    let fy = y == 0 ? 0 : (y & 1 == 1 ? 1 : 3)
                    for x in 0..<w {
                        let sx = max(0, (x - 1) >> 1), nx = min(width - 1, sx + 1)
                        let fx = x == 0 ? 0 : (x & 1 == 1 ? 1 : 3)
                        let a = Int(src[sy * width + sx]), b = Int(src[sy * width + nx])
                        let c = Int(src[ny * width + sx]), d = Int(src[ny * width + nx])
                        let top = a * (4 - fx) + b * fx, bottom = c * (4 - fx) + d * fx
                        dst[y * w + x] = UInt8((top * (4 - fy) + bottom * fy + 8) >> 4)
                    }
                }
            }
        }
        return GrayFrame(width: w, height: h, pixels: out)!
    }
}
