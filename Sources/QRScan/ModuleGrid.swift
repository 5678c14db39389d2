/// A QR code's modules read straight from the frame at the positions its three finder patterns
/// predict, then drawn again as a clean code for zbar to decode.
///
/// zbar finds module edges with an edge detector along scan lines, which defocus and motion
/// blur smear away; the middle of each module keeps its darkness much longer. Sampling there
/// and thresholding against the surrounding modules is how ZXing-C++ reads blurred codes; here
/// zbar still does the decoding (format information, Reed-Solomon), so a grid sampled wrongly
/// fails its error correction instead of reading as something else.
struct ModuleGrid: Sendable, Equatable {
    /// Modules per side (21 for version 1, 4 more per version).
    let size: Int
    /// Row-major, true = dark.
    var dark: [Bool]

    /// The grid of the code `geometry` places in `frame`. Light modules on dark when `inverted`.
    init?(sampling frame: GrayFrame, geometry: CodeGeometry, inverted: Bool, window: Int = 4, sharpening: Int = 0) {
        let size = geometry.size
        guard size >= 21 else { return nil }
        self.size = size
        var samples = [Int](repeating: 0, count: size * size)
        for row in 0..<size {
            for column in 0..<size {
                let p = geometry.point(column: Double(column) + 0.5, row: Double(row) + 0.5)
                guard let value = frame.bilinear(x: p.x, y: p.y) else { return nil }
                samples[row * size + column] = value
            }
        }
        if sharpening > 0 {
            var sharpened = samples
            for row in 1..<(size - 1) {
                for column in 1..<(size - 1) {
                    let i = row * size + column
                    let around = samples[i - 1] + samples[i + 1] + samples[i - size] + samples[i + size]
                    sharpened[i] = samples[i] + sharpening * (4 * samples[i] - around) / 16
                }
            }
            samples = sharpened
        }
        // Each module against the mean of the modules around it: glare and shadow change the
        // level across a code, data modules are about half dark anywhere.
        let sums = IntegralGrid(samples, size: size)
        var dark = [Bool](repeating: false, count: size * size)
        for row in 0..<size {
            for column in 0..<size {
                let (total, count) = sums.sum(row - window...row + window, column - window...column + window)
                let isDark = samples[row * size + column] * count < total
                dark[row * size + column] = isDark != inverted
            }
        }
        self.dark = dark
        drawFunctionPatterns()
    }

    /// Finder patterns, their separators and the timing patterns are the same in every code:
    /// drawn as they must be, zbar locates the grid even where blur smeared them.
    private mutating func drawFunctionPatterns() {
        for (top, left) in [(0, 0), (0, size - 7), (size - 7, 0)] {
            for dy in -1...7 {
                for dx in -1...7 {
                    let row = top + dy, column = left + dx
                    guard row >= 0, column >= 0, row < size, column < size else { continue }
                    let ring = max(abs(dy - 3), abs(dx - 3))
                    dark[row * size + column] = ring != 2 && ring != 4
                }
            }
        }
        for i in 8..<(size - 8) {
            dark[6 * size + i] = i % 2 == 0
            dark[i * size + 6] = i % 2 == 0
        }
    }

    /// The grid drawn as a clean code: `modulePixels` per module, dark on light, with a quiet
    /// zone of four modules.
    func rendered(modulePixels: Int = 3) -> GrayFrame {
        let side = (size + 8) * modulePixels
        var pixels = [UInt8](repeating: 255, count: side * side)
        for row in 0..<size {
            for column in 0..<size where dark[row * size + column] {
                let y0 = (row + 4) * modulePixels, x0 = (column + 4) * modulePixels
                for y in y0..<(y0 + modulePixels) {
                    for x in x0..<(x0 + modulePixels) { pixels[y * side + x] = 0 }
                }
            }
        }
        return GrayFrame(width: side, height: side, pixels: pixels)!
    }
}

/// Sums over rectangles of a square grid of integers in constant time.
private struct IntegralGrid {
    let size: Int
    private var table: [Int]

    init(_ values: [Int], size: Int) {
        self.size = size
        let w = size + 1
        table = [Int](repeating: 0, count: w * w)
        for row in 0..<size {
            var rowSum = 0
            for column in 0..<size {
                rowSum += values[row * size + column]
                table[(row + 1) * w + column + 1] = table[row * w + column + 1] + rowSum
            }
        }
    }

    /// The sum and count of the cells in `rows` x `columns`, clipped to the grid.
    func sum(_ rows: ClosedRange<Int>, _ columns: ClosedRange<Int>) -> (total: Int, count: Int) {
        let r0 = max(0, rows.lowerBound), r1 = min(size, rows.upperBound + 1)
        let c0 = max(0, columns.lowerBound), c1 = min(size, columns.upperBound + 1)
        let w = size + 1
        let total = table[r1 * w + c1] - table[r0 * w + c1] - table[r1 * w + c0] + table[r0 * w + c0]
        return (total, (r1 - r0) * (c1 - c0))
    }
}

extension GrayFrame {
    /// The level at (x, y) in continuous coordinates (pixel i covers [i, i + 1)), interpolated
    /// between the four nearest pixel centres; `nil` outside the frame.
    func bilinear(x: Double, y: Double) -> Int? {
        let fx = x - 0.5, fy = y - 0.5
        guard fx >= 0, fy >= 0, fx <= Double(width - 1), fy <= Double(height - 1) else { return nil }
        let x0 = Int(fx), y0 = Int(fy)
        let x1 = min(width - 1, x0 + 1), y1 = min(height - 1, y0 + 1)
        let ax = fx - Double(x0), ay = fy - Double(y0)
        let top = Double(pixels[y0 * width + x0]) * (1 - ax) + Double(pixels[y0 * width + x1]) * ax
        let bottom = Double(pixels[y1 * width + x0]) * (1 - ax) + Double(pixels[y1 * width + x1]) * ax
        return Int(top * (1 - ay) + bottom * ay)
    }
}
