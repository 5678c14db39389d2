/// Where a code's modules are in a frame: from module coordinates (column, row; module (c, r)
/// covers [c, c + 1) x [r, r + 1)) to frame pixels.
///
/// Three finder centres fix an affine map, which is exact for a code seen square-on and off by
/// up to a module at the far corner of a tilted one; from version 2 on, the alignment pattern
/// near that corner gives the fourth point of a perspective map.
struct CodeGeometry: Sendable {
    /// Modules per side.
    let size: Int
    let transform: Homography
    /// Whether the alignment pattern was found and the map is a perspective one.
    let perspective: Bool

    init(frame: GrayFrame, corner: FinderPattern, right: FinderPattern, down: FinderPattern, size: Int, inverted: Bool) {
        self.size = size
        let span = Double(size - 7)
        let u = ((right.x - corner.x) / span, (right.y - corner.y) / span)
        let v = ((down.x - corner.x) / span, (down.y - corner.y) / span)
        let affine = Homography(affineFrom: (3.5, 3.5), to: (corner.x, corner.y), u: u, v: v)
        guard size >= 25,
              let alignment = Self.alignmentPattern(in: frame, near: affine.apply(Double(size) - 6.5, Double(size) - 6.5),
                                                    u: u, v: v, inverted: inverted),
              let mapped = Homography(from: [(3.5, 3.5), (Double(size) - 3.5, 3.5), (3.5, Double(size) - 3.5),
                                             (Double(size) - 6.5, Double(size) - 6.5)],
                                      to: [(corner.x, corner.y), (right.x, right.y), (down.x, down.y), alignment])
        else {
            transform = affine
            perspective = false
            return
        }
        transform = mapped
        perspective = true
    }

    /// The frame position of a point in module coordinates.
    func point(column: Double, row: Double) -> (x: Double, y: Double) { transform.apply(column, row) }

    /// The centre of the alignment pattern (a dark module in a light ring in a dark ring, 5x5
    /// modules) within 3 modules of `expected`, found by matching that template at quarter-module
    /// steps; `nil` when nothing there looks like one.
    private static func alignmentPattern(in frame: GrayFrame, near expected: (x: Double, y: Double),
                                         u: (Double, Double), v: (Double, Double), inverted: Bool) -> (x: Double, y: Double)? {
        var best: (score: Double, x: Double, y: Double)?
        for a in stride(from: -3.0, through: 3.0, by: 0.25) {
            for b in stride(from: -3.0, through: 3.0, by: 0.25) {
                let cx = expected.x + a * u.0 + b * v.0, cy = expected.y + a * u.1 + b * v.1
                var dark = 0, light = 0, darkCount = 0, lightCount = 0
                var outside = false
                for j in -2...2 {
                    for i in -2...2 {
                        guard let value = frame.bilinear(x: cx + Double(i) * u.0 + Double(j) * v.0,
                                                         y: cy + Double(i) * u.1 + Double(j) * v.1) else { outside = true; continue }
                        let ring = max(abs(i), abs(j))
                        if ring == 1 { light += value; lightCount += 1 } else { dark += value; darkCount += 1 }
                    }
                }
                guard !outside else { continue }
                // Light ring minus dark modules, in levels (reversed for a dark-mode code).
                var score = Double(light) / Double(lightCount) - Double(dark) / Double(darkCount)
                if inverted { score = -score }
                if best == nil || score > best!.score { best = (score, cx, cy) }
            }
        }
        // A real pattern stands out by at least 16 levels.
        guard let best, best.score >= 16 else { return nil }
        return (best.x, best.y)
    }
}
