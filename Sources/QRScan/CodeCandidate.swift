/// A place in a frame where a QR code probably is, from the finder patterns around it: the
/// region zbar is given instead of the whole frame.
struct CodeCandidate: Sendable, Equatable {
    /// The code with a quiet zone around it, in frame pixels (may reach past the frame's edge).
    var region: PixelRect
    /// Pixels per module: measured along the code's edges for a full set of finders, else the
    /// largest of its finder patterns' (which a rotated code makes up to 1.4x too large).
    var moduleSize: Double
    /// Light modules on dark: the region is inverted before zbar sees it.
    var inverted: Bool
    /// The finder patterns that vouch for it: for a full set of three, the corner one first,
    /// then the one along the code's top edge and the one down its left edge (as the code
    /// reads, whatever its rotation in the frame); fewer when one was hidden.
    var finders: [FinderPattern]

    /// Modules per side, estimated from a full set of finders (21 + 4k); `nil` for fewer.
    var size: Int?
    /// One of the three finders was not seen but put where the other two say it must be
    /// (see ``CodeCandidate/completions(of:_:)``): only worth sampling its module grid.
    var guessed = false

    /// How many finder patterns vouch for it: 3 for a full set.
    var finderCount: Int { finders.count }

    /// The same candidate in the coordinates of a frame in which `origin` is its frame's top left.
    func moved(by origin: (x: Int, y: Int)) -> CodeCandidate {
        var moved = self
        moved.region.x += origin.x
        moved.region.y += origin.y
        moved.finders = finders.map { var f = $0; f.x += Double(origin.x); f.y += Double(origin.y); return f }
        return moved
    }

    /// Whether most of `other` lies inside this region (the same code found twice).
    func covers(_ other: PixelRect) -> Bool {
        let x0 = max(region.x, other.x), y0 = max(region.y, other.y)
        let x1 = min(region.x + region.width, other.x + other.width)
        let y1 = min(region.y + region.height, other.y + other.height)
        guard x1 > x0, y1 > y0 else { return false }
        return (x1 - x0) * (y1 - y0) * 2 > other.width * other.height
    }
}

extension CodeCandidate {
    /// Groups finder patterns into candidates, most plausible first: sets of three that form
    /// a code's corner (two legs of similar length at about a right angle, similar module
    /// sizes), then, for patterns left over, pairs and strong single patterns, which cover
    /// codes whose third finder is lost to glare or blur.
    static func group(_ patterns: [FinderPattern], in image: BinaryImage) -> [CodeCandidate] {
        var triples: [(score: Double, members: (Int, Int, Int))] = []
        let n = patterns.count
        for i in 0..<n {
            for j in (i + 1)..<max(i + 1, n) {
                for k in (j + 1)..<max(j + 1, n) {
                    if let score = tripleScore(patterns[i], patterns[j], patterns[k]) {
                        triples.append((score, (i, j, k)))
                    }
                }
            }
        }
        var used = Set<Int>()
        var candidates: [CodeCandidate] = []
        for triple in triples.sorted(by: { $0.score < $1.score }) {
            let (i, j, k) = triple.members
            guard !used.contains(i), !used.contains(j), !used.contains(k) else { continue }
            used.formUnion([i, j, k])
            var candidate = around([patterns[i], patterns[j], patterns[k]])
            (candidate.moduleSize, candidate.size) = measured(candidate.finders, in: image)
            candidates.append(candidate)
        }
        // Leftovers: a pair spans a side or the diagonal of its code, so the region reaches
        // the pair's distance (plus the finder's half and a quiet zone) beyond it on every
        // side; a lone pattern gets a typical ticket code's size (up to version 10, 57 modules)
        // around it.
        let rest = (0..<n).filter { !used.contains($0) }
        var paired = Set<Int>()
        var completions: [CodeCandidate] = []
        for (a, i) in rest.enumerated() {
            for j in rest[(a + 1)...] where !paired.contains(i) && !paired.contains(j) {
                let p = patterns[i], q = patterns[j]
                guard p.inverted == q.inverted, similarSize(p, q) else { continue }
                let modules = p.distance(to: q) / max(p.moduleSize, q.moduleSize)
                guard modules >= 12, modules <= 180 else { continue }
                paired.formUnion([i, j])
                candidates.append(around([p, q], reach: p.distance(to: q) + 8 * max(p.moduleSize, q.moduleSize)))
                completions += Self.completions(of: p, q)
            }
        }
        for i in rest where !paired.contains(i) && patterns[i].hits >= 3 {
            candidates.append(around([patterns[i]], reach: patterns[i].moduleSize * 50))
        }
        return candidates + completions
    }

    /// The six codes two finder patterns can belong to, each with its third finder put where
    /// it would be: the pair along the top or the left edge, with the code on either side
    /// (four), or the pair across the diagonal, with the corner on either side (two). Glare
    /// washes out a finder as easily as any other part of a code, and the module grid is
    /// drawn with all three finders anyway; on the public corpus this read 4 more glare frames
    /// (42 of 43), whose third finder the locator could not see.
    static func completions(of p: FinderPattern, _ q: FinderPattern) -> [CodeCandidate] {
        let d = p.distance(to: q)
        let module = (p.moduleSize + q.moduleSize) / 2
        let (nx, ny) = (-(q.y - p.y) / d, (q.x - p.x) / d)
        func guessed(_ x: Double, _ y: Double) -> FinderPattern {
            FinderPattern(x: x, y: y, moduleSize: module, inverted: p.inverted, hits: 0)
        }
        var triples: [[FinderPattern]] = []
        for side in [1.0, -1.0] {
            triples.append([p, q, guessed(p.x + side * nx * d, p.y + side * ny * d)])
            triples.append([q, p, guessed(q.x + side * nx * d, q.y + side * ny * d)])
            let (mx, my) = ((p.x + q.x) / 2, (p.y + q.y) / 2)
            triples.append([p, q, guessed(mx + side * nx * d / 2, my + side * ny * d / 2)])
        }
        return triples.map { triple in
            var candidate = around(triple)
            candidate.size = validSize(candidate.finders[0].distance(to: candidate.finders[1]) / module + 7)
            candidate.guessed = true
            return candidate
        }
    }

    private static func similarSize(_ a: FinderPattern, _ b: FinderPattern) -> Bool {
        max(a.moduleSize, b.moduleSize) <= 2 * min(a.moduleSize, b.moduleSize)
    }

    /// Lower is more plausible; `nil` when the three cannot be one code's finders.
    private static func tripleScore(_ a: FinderPattern, _ b: FinderPattern, _ c: FinderPattern) -> Double? {
        guard a.inverted == b.inverted, b.inverted == c.inverted,
              similarSize(a, b), similarSize(b, c), similarSize(a, c) else { return nil }
        let (corner, p, q) = cornerFirst(a, b, c)
        let leg1 = corner.distance(to: p), leg2 = corner.distance(to: q)
        guard leg1 > 0, leg2 > 0, max(leg1, leg2) <= 2 * min(leg1, leg2) else { return nil }
        // Perspective (tilt up to 45 degrees) skews the right angle; beyond 60-120 it is no code.
        let cosine = ((p.x - corner.x) * (q.x - corner.x) + (p.y - corner.y) * (q.y - corner.y)) / (leg1 * leg2)
        guard abs(cosine) <= 0.5 else { return nil }
        let module = (a.moduleSize + b.moduleSize + c.moduleSize) / 3
        let modules = (leg1 + leg2) / 2 / module + 7
        guard modules >= 17, modules <= 190 else { return nil }
        return abs(leg1 - leg2) / max(leg1, leg2) + abs(cosine)
            + (max(a.moduleSize, b.moduleSize, c.moduleSize) / min(a.moduleSize, b.moduleSize, c.moduleSize) - 1)
    }

    /// The three with the corner pattern first: the one opposite the longest side.
    private static func cornerFirst(_ a: FinderPattern, _ b: FinderPattern, _ c: FinderPattern)
        -> (FinderPattern, FinderPattern, FinderPattern) {
        let ab = a.distance(to: b), bc = b.distance(to: c), ac = a.distance(to: c)
        return bc >= ab && bc >= ac ? (a, b, c) : ac >= ab ? (b, a, c) : (c, a, b)
    }

    /// The valid code size (21 + 4k modules, version 1 to 40) nearest to `modules`.
    private static func validSize(_ modules: Double) -> Int {
        17 + 4 * max(1, min(40, Int(((modules - 17) / 4).rounded())))
    }

    /// Pixels per module and modules per side of the code whose finders are `corner, right,
    /// down`: module sizes measured along the code's edges, the distances between the finder
    /// centres in modules plus the 7 between the centres and the edges, rounded to a valid
    /// size (21 + 4k).
    private static func measured(_ finders: [FinderPattern], in image: BinaryImage) -> (moduleSize: Double, size: Int) {
        let (corner, right, down) = (finders[0], finders[1], finders[2])
        func module(_ a: FinderPattern, _ b: FinderPattern) -> Double {
            let widths = [FinderLocator.width(of: a, towards: b, in: image), FinderLocator.width(of: b, towards: a, in: image)]
                .compactMap { $0 }
            return widths.isEmpty ? (a.moduleSize + b.moduleSize) / 2 : widths.reduce(0, +) / Double(widths.count) / 7
        }
        let (top, left) = (module(corner, right), module(corner, down))
        let span = (corner.distance(to: right) / top + corner.distance(to: down) / left) / 2 + 7
        return ((top + left) / 2, validSize(span))
    }

    /// The region holding the code these patterns belong to.
    private static func around(_ patterns: [FinderPattern], reach: Double? = nil) -> CodeCandidate {
        let module = patterns.map(\.moduleSize).max() ?? 1
        var finders = patterns
        var xs = patterns.map(\.x), ys = patterns.map(\.y)
        if patterns.count == 3 {
            var (corner, p, q) = cornerFirst(patterns[0], patterns[1], patterns[2])
            // Reading order: with y pointing down, the top edge turns clockwise into the left
            // edge, so (p - corner) x (q - corner) is positive.
            if (p.x - corner.x) * (q.y - corner.y) - (p.y - corner.y) * (q.x - corner.x) < 0 { swap(&p, &q) }
            finders = [corner, p, q]
            // The fourth corner completes the parallelogram opposite the corner pattern.
            xs.append(p.x + q.x - corner.x)
            ys.append(p.y + q.y - corner.y)
        }
        // From a finder's centre to the code's edge is 3.5 modules, 5 along a diagonal (a code
        // rotated 45 degrees), then a quiet zone zbar needs: 8 modules in all.
        let margin = reach ?? module * 8
        let x0 = xs.min()! - margin, x1 = xs.max()! + margin
        let y0 = ys.min()! - margin, y1 = ys.max()! + margin
        return CodeCandidate(
            region: PixelRect(x: Int(x0.rounded(.down)), y: Int(y0.rounded(.down)),
                              width: Int((x1 - x0).rounded(.up)), height: Int((y1 - y0).rounded(.up))),
            moduleSize: module, inverted: patterns[0].inverted, finders: finders)
    }
}
