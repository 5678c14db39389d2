/// Finds QR finder patterns in a thresholded frame: runs in the 1:1:3:1:1 proportion along
/// scan lines, confirmed down the column and along a diagonal through their centre.
///
/// Concentric squares keep that proportion along any line through their centre, so the same
/// test finds patterns at every rotation and, stretched, under perspective.
struct FinderLocator {
    /// Scan every `rowStep`-th row.
    var rowStep = 2
    /// At most this many patterns are kept (a frame of text or checkerboard can hold hundreds
    /// of 1:1:3:1:1 runs; real codes need three each).
    var maximumPatterns = 24
    /// Tolerance of the diagonal checks, in modules (see ``RunPattern/isFinder(tolerance:)``).
    /// Both diagonals at 0.75 instead of either at 1 found 2 more codes' finders on the public
    /// corpus and a third of the decoy patterns (0.2-3 per frame instead of 1-8).
    var diagonalTolerance = 0.75

    func locate(in image: BinaryImage) -> [FinderPattern] {
        var found: [FinderPattern] = []
        let w = image.width
        image.bits.withUnsafeBufferPointer { bits in
            let base = UnsafeRawPointer(bits.baseAddress!)
            var y = rowStep / 2
            while y < image.height {
                let row = y * w
                var runs = (0, 0, 0, 0, 0), count = 0
                var color = bits[row], length = 0
                var x = 0
                while x <= w {
                    // Most of a frame is long runs: eight pixels of the current colour at a
                    // time (half the time of the pixel loop at 1280x720).
                    let same = UInt64(color) &* 0x0101_0101_0101_0101
                    while x + 8 <= w && base.loadUnaligned(fromByteOffset: row + x, as: UInt64.self) == same {
                        length += 8
                        x += 8
                    }
                    let c: UInt8 = x < w ? bits[row + x] : 2
                    if c == color {
                        length += 1
                    } else {
                        runs = (runs.1, runs.2, runs.3, runs.4, length)
                        count += 1
                        if count >= 5, RunPattern(runs: runs).isFinder() {
                            let centerEnd = x - runs.4 - runs.3
                            let cx = Double(centerEnd) - Double(runs.2) / 2
                            consider(cx: cx, y: y, width: RunPattern(runs: runs).total, dark: color == 1,
                                     image: image, found: &found)
                        }
                        color = c
                        length = 1
                    }
                    x += 1
                }
                y += rowStep
            }
        }
        return found.sorted { $0.hits > $1.hits }.prefix(maximumPatterns).map { $0 }
    }

    /// A row hit at (cx, y): a known pattern seen again, or confirmed across and added.
    private func consider(cx: Double, y: Int, width: Int, dark: Bool, image: BinaryImage, found: inout [FinderPattern]) {
        for i in found.indices where found[i].inverted != dark {
            let p = found[i]
            if abs(p.x - cx) < p.moduleSize * 2.5, abs(p.y - Double(y)) < p.moduleSize * 3.5 {
                found[i].hits += 1
                return
            }
        }
        let center: UInt8 = dark ? 1 : 0
        let reach = width * 2
        guard let down = crossCheck(image, x: Int(cx), y: y, dx: 0, dy: 1, center: center, reach: reach) else { return }
        let cy = Double(y) + down.offset
        guard let across = crossCheck(image, x: Int(cx), y: Int(cy), dx: 1, dy: 0, center: center, reach: reach) else { return }
        let fx = cx.rounded(.down) + across.offset
        // Both diagonals reject bars, stripes and texture blobs that are 1:1:3:1:1 across and
        // down only.
        guard crossCheck(image, x: Int(fx), y: Int(cy), dx: 1, dy: 1, center: center, reach: reach, tolerance: diagonalTolerance) != nil,
              crossCheck(image, x: Int(fx), y: Int(cy), dx: 1, dy: -1, center: center, reach: reach, tolerance: diagonalTolerance) != nil
        else { return }
        let sizes = [Double(across.total), Double(down.total)]
        guard sizes.max()! <= 2 * sizes.min()! else { return }
        let pattern = FinderPattern(x: fx + 0.5, y: cy + 0.5, moduleSize: (sizes[0] + sizes[1]) / 14, inverted: !dark, hits: 1)
        if let twin = found.firstIndex(where: { $0.inverted == pattern.inverted && $0.distance(to: pattern) < $0.moduleSize * 2 }) {
            found[twin].hits += 1
        } else {
            found.append(pattern)
        }
    }

    /// Reads five runs through (x, y) along (dx, dy), both ways from the centre pixel. Returns
    /// where the centre run's middle lies relative to (x, y), in steps, and the pattern's width
    /// in steps, or `nil` when the runs are not a finder pattern.
    private func crossCheck(_ image: BinaryImage, x: Int, y: Int, dx: Int, dy: Int, center: UInt8, reach: Int,
                            tolerance: Double = 0.75) -> (offset: Double, total: Int)? {
        guard image.bit(x, y) == center, x >= 0, y >= 0, x < image.width, y < image.height else { return nil }
        func walk(_ sx: Int, _ sy: Int) -> (Int, Int, Int)? {
            var counts = (0, 0, 0), px = x, py = y, expected = center, stage = 0, budget = reach
            while stage < 3 {
                guard px >= 0, py >= 0, px < image.width, py < image.height, budget > 0 else {
                    // The outer ring may end at the image border.
                    return stage == 2 && counts.2 > 0 ? counts : nil
                }
                if image.bits[py * image.width + px] == expected {
                    switch stage { case 0: counts.0 += 1; case 1: counts.1 += 1; default: counts.2 += 1 }
                    px += sx; py += sy; budget -= 1
                } else {
                    stage += 1
                    expected ^= 1
                }
            }
            return counts
        }
        guard let forward = walk(dx, dy), let backward = walk(-dx, -dy) else { return nil }
        let runs = RunPattern(runs: (backward.2, backward.1, backward.0 + forward.0 - 1, forward.1, forward.2))
        guard runs.isFinder(tolerance: tolerance) else { return nil }
        let offset = Double(forward.0 - backward.0) / 2
        return (offset, runs.total)
    }

    /// The width of `pattern` (7 modules) measured along the line towards `other`, in pixels;
    /// `nil` when the runs along that line are not a finder pattern. Across and down, a square
    /// rotated by 45 degrees is 1.4x as wide as along its own rows: the codes of the public
    /// corpus's rotated frames had their size misjudged by a version in 16 of 43 frames.
    static func width(of pattern: FinderPattern, towards other: FinderPattern, in image: BinaryImage) -> Double? {
        let length = pattern.distance(to: other)
        guard length > 0 else { return nil }
        let dx = (other.x - pattern.x) / length, dy = (other.y - pattern.y) / length
        let center: UInt8 = pattern.inverted ? 0 : 1
        let reach = Int(pattern.moduleSize * 12)
        func walk(_ sign: Double) -> (Int, Int, Int)? {
            var counts = (0, 0, 0), expected = center, stage = 0, step = 0
            while stage < 3 {
                let x = Int((pattern.x + sign * Double(step) * dx).rounded(.down))
                let y = Int((pattern.y + sign * Double(step) * dy).rounded(.down))
                guard x >= 0, y >= 0, x < image.width, y < image.height, step < reach else {
                    return stage == 2 && counts.2 > 0 ? counts : nil
                }
                if image.bits[y * image.width + x] == expected {
                    switch stage { case 0: counts.0 += 1; case 1: counts.1 += 1; default: counts.2 += 1 }
                    step += 1
                } else {
                    stage += 1
                    expected ^= 1
                }
            }
            return counts
        }
        guard let forward = walk(1), let backward = walk(-1) else { return nil }
        let runs = RunPattern(runs: (backward.2, backward.1, backward.0 + forward.0 - 1, forward.1, forward.2))
        return runs.isFinder(tolerance: 1) ? Double(runs.total) : nil
    }
}
