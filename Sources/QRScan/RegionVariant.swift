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

    static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// The retries, in the order a candidate goes through them.
    static let retries: [RegionVariant] = [.binarized, .sharpened, .upscaled, .sharpenedUpscaled]

    /// Module size (px) the region is scaled to before the variant's own transform.
    static let targetModule = 3.0

    /// Whether this variant can help a candidate of `moduleSize` px modules.
    func applies(toModuleSize moduleSize: Double) -> Bool {
        switch self {
        case .plain, .binarized, .sharpened: true
        case .upscaled, .sharpenedUpscaled: moduleSize < 4
        }
    }

    /// Cost relative to the plain pass on the same region (release build, public corpus).
    var relativeCost: Double {
        switch self {
        case .plain: 1
        case .binarized, .sharpened: 1.3
        case .upscaled, .sharpenedUpscaled: 4
        }
    }

    /// The image zbar scans for `candidate`, with the factor that maps its coordinates back to
    /// the frame's (frame = origin + image * scale).
    func render(_ frame: GrayFrame, _ candidate: CodeCandidate) -> (image: GrayFrame, origin: (x: Int, y: Int), scale: Double)? {
        let shrink = max(1, Int(candidate.moduleSize / Self.targetModule))
        guard let (crop, origin) = frame.region(candidate.region, shrink: shrink, invert: candidate.inverted) else { return nil }
        let module = candidate.moduleSize / Double(shrink)
        let scale = Double(shrink)
        switch self {
        case .plain: return (crop, origin, scale)
        case .binarized: return (crop.binarizedAdaptive(window: Int(module * 8), offset: 2), origin, scale)
        case .sharpened: return (crop.sharpened(), origin, scale)
        case .upscaled: return (crop.upscaledBilinear2x(), origin, scale / 2)
        case .sharpenedUpscaled: return (crop.sharpened(amount: 6).upscaledBilinear2x(), origin, scale / 2)
        }
    }
}
