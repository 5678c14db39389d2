/// One zbar pass the decoder plans for a frame.
enum ScanAttempt: Sendable, Equatable {
    /// A candidate's region, prepared one way.
    case region(CodeCandidate, RegionVariant)
    /// A whole-frame step of the cascade: the fallback for codes the locator missed.
    case frame(CascadeStep)

    /// About how many pixels zbar will scan, which its cost is proportional to.
    func pixelCount(frameWidth: Int, frameHeight: Int) -> Int {
        switch self {
        case .region(let candidate, let variant):
            let r = candidate.region
            let w = min(frameWidth, r.x + r.width) - max(0, r.x), h = min(frameHeight, r.y + r.height) - max(0, r.y)
            let shrink = max(1, Int(candidate.moduleSize / RegionVariant.targetModule))
            let pixels = max(0, w / shrink) * max(0, h / shrink)
            return Int(Double(pixels) * variant.relativeCost)
        case .frame(let step):
            return Int(Double(frameWidth * frameHeight) * step.relativeCost)
        }
    }
}

/// What one attempt found and cost.
struct AttemptOutcome: Sendable {
    /// Symbols with their bounds in frame coordinates.
    var symbols: [RawSymbol]
    /// CPU time of the thread that ran it.
    var cpuTime: Duration
    /// Whether the attempt ran (a region entirely outside the frame does not).
    var ran: Bool
}

extension ScanAttempt {
    /// Prepares the image and scans it with `scanner` on the calling thread.
    func run(on frame: GrayFrame, with scanner: ZBarScanner, configuration: DecoderConfiguration) -> AttemptOutcome {
        let start = ThreadCPUTime.now()
        let prepared: PreparedImage?
        switch self {
        case .region(let candidate, let variant):
            prepared = variant.render(frame, candidate)
            // The region's polarity is known: zbar's own inverted retry would only double the cost.
            scanner.setTestInverted(false)
            scanner.setDensity(1)
        case .frame(let step):
            prepared = step.prepare(frame)
            scanner.setTestInverted(configuration.zbarTestsInverted)
            scanner.setDensity(step == .downscaled || step == .binarized ? 1 : configuration.fullSizeDensity)
        }
        guard let prepared else { return AttemptOutcome(symbols: [], cpuTime: ThreadCPUTime.now() - start, ran: false) }
        let symbols = scanner.scan(prepared.image).map { symbol in
            var mapped = symbol
            mapped.bounds = prepared.codeBounds ?? symbol.bounds.map {
                PixelRect(x: Int(Double($0.x) * prepared.scale) + prepared.origin.x,
                          y: Int(Double($0.y) * prepared.scale) + prepared.origin.y,
                          width: Int(Double($0.width) * prepared.scale), height: Int(Double($0.height) * prepared.scale))
            }
            return mapped
        }
        return AttemptOutcome(symbols: symbols, cpuTime: ThreadCPUTime.now() - start, ran: true)
    }
}

extension CascadeStep {
    /// Whether this step hands zbar the whole frame (rather than candidate regions).
    var scansWholeFrame: Bool {
        switch self {
        case .regionOfInterest, .located, .retries: false
        default: true
        }
    }

    /// The whole-frame image this step hands zbar, with the factor back to frame coordinates;
    /// `nil` for the steps that work on candidates instead.
    func prepare(_ frame: GrayFrame) -> PreparedImage? {
        switch self {
        case .original: PreparedImage(frame, scale: 1)
        case .downscaled: PreparedImage(frame.downscaled2x(), scale: 2)
        case .binarized: PreparedImage(frame.downscaled2x().binarizedAdaptive(), scale: 2)
        case .binarizedFull: PreparedImage(frame.binarizedAdaptive(), scale: 1)
        case .inverted: PreparedImage(frame.inverted(), scale: 1)
        case .upscaled: PreparedImage(frame.upscaled2x(), scale: 0.5)
        case .regionOfInterest, .located, .retries: nil
        }
    }
}

/// The image an attempt hands zbar, and how its coordinates map back to the frame's:
/// frame = origin + image * scale, or, for a code drawn anew from its sampled modules, the
/// code's place in the frame as sampled.
struct PreparedImage {
    var image: GrayFrame
    var origin: (x: Int, y: Int) = (0, 0)
    var scale: Double
    var codeBounds: PixelRect?

    init(_ image: GrayFrame, origin: (x: Int, y: Int) = (0, 0), scale: Double, codeBounds: PixelRect? = nil) {
        self.image = image
        self.origin = origin
        self.scale = scale
        self.codeBounds = codeBounds
    }
}
