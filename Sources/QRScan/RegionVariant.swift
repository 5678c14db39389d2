/// How a candidate's region is prepared for zbar. The first is what reads most codes; the
/// others are the retries, each for a kind of damage.
enum RegionVariant: Int, Sendable, CaseIterable, Comparable {
    /// The region at about 3 px per module (larger modules averaged down, which also averages
    /// noise out; zbar reads 3 px modules as well as 8 px ones at a seventh of the cost).
    case plain
    /// Locally thresholded over a window of 8 modules: motion blur, noise, low contrast.
    case binarized
    /// Unsharp-masked: defocus.
    case sharpened
    /// Twice the size, bilinear: modules under 4 px, which zbar's edge detector merges.
    case upscaled
    /// Sharpened, then twice the size: small codes that are also soft.
    case sharpenedUpscaled
    /// The modules sampled at their centres where the finder patterns (and the alignment
    /// pattern) place them, and drawn again as a clean code: defocus, motion blur, low
    /// contrast (see ``ModuleGrid``). Only for full sets of three finders.
    case resampled

    static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// The retries, in the order a candidate goes through them.
    static let retries: [RegionVariant] = [.resampled, .binarized, .sharpened, .upscaled, .sharpenedUpscaled]

    /// Module size (px) the region is scaled to before the variant's own transform.
    static let targetModule = 3.0

    /// Whether this variant can help `candidate`.
    func applies(to candidate: CodeCandidate) -> Bool {
        if candidate.guessed { return self == .resampled }
        return switch self {
        case .plain, .binarized, .sharpened: true
        case .upscaled, .sharpenedUpscaled: candidate.moduleSize < 4
        case .resampled: candidate.size != nil
        }
    }

    /// Cost relative to the plain pass on the same region, for the budget's predictions. On
    /// the public corpus's candidates (release build, p50) the retries measured 0.8 (binarized),
    /// 1.25 (sharpened), 2.1 (enlarged) and 2.7 (both); the figures here are higher, so that
    /// an expensive retry late in a frame rather waits for the next frame than overruns.
    var relativeCost: Double {
        switch self {
        case .plain: 1
        case .binarized, .sharpened: 1.3
        case .upscaled, .sharpenedUpscaled: 4
        case .resampled: 0.5  // a small clean image, plus the sampling
        }
    }

    /// The image zbar scans for `candidate`.
    func render(_ frame: GrayFrame, _ candidate: CodeCandidate) -> PreparedImage? {
        if self == .resampled { return resample(frame, candidate) }
        let shrink = max(1, Int(candidate.moduleSize / Self.targetModule))
        guard let (crop, origin) = frame.region(candidate.region, shrink: shrink, invert: candidate.inverted) else { return nil }
        let module = candidate.moduleSize / Double(shrink)
        let scale = Double(shrink)
        switch self {
        case .plain: return PreparedImage(crop, origin: origin, scale: scale)
        case .binarized: return PreparedImage(crop.binarizedAdaptive(window: Int(module * 8), offset: 2), origin: origin, scale: scale)
        case .sharpened: return PreparedImage(crop.sharpened(), origin: origin, scale: scale)
        case .upscaled: return PreparedImage(crop.upscaledBilinear2x(), origin: origin, scale: scale / 2)
        case .sharpenedUpscaled: return PreparedImage(crop.sharpened(amount: 6).upscaledBilinear2x(), origin: origin, scale: scale / 2)
        case .resampled: return nil
        }
    }

    private func resample(_ frame: GrayFrame, _ candidate: CodeCandidate) -> PreparedImage? {
        guard let size = candidate.size, candidate.finders.count == 3 else { return nil }
        let f = candidate.finders
        let geometry = CodeGeometry(frame: frame, corner: f[0], right: f[1], down: f[2], size: size, inverted: candidate.inverted)
        // Module-grid sharpening by a third: on the public corpus's defocused frames the grid read
        // 30 codes with it, 26 without (a half read as many, a whole 29).
        guard let grid = ModuleGrid(sampling: frame, geometry: geometry, inverted: candidate.inverted, sharpening: 6) else { return nil }
        let corners = [(0.0, 0.0), (Double(size), 0), (0, Double(size)), (Double(size), Double(size))]
            .map { geometry.point(column: $0.0, row: $0.1) }
        let x0 = corners.map(\.x).min()!, x1 = corners.map(\.x).max()!
        let y0 = corners.map(\.y).min()!, y1 = corners.map(\.y).max()!
        return PreparedImage(grid.rendered(), scale: 1,
                             codeBounds: PixelRect(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0)))
    }
}
