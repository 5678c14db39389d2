import Foundation

/// One step of the decoder's cascade.
public enum CascadeStep: String, Sendable, CaseIterable, Codable {
    /// The regions where the last frame's codes were read, the way they were read: cheap, and
    /// what a held phone needs.
    case regionOfInterest = "roi"
    /// The regions the finder-pattern locator proposes, each at about 3 px per module.
    case located
    /// Retries on located regions that did not read: binarized, sharpened, enlarged.
    case retries
    /// The frame as it is.
    case original
    /// 2x2-averaged: blur, noise and moiré average out, and it is 4x cheaper.
    case downscaled
    /// Local-mean thresholding of the downscaled frame: low contrast, glare, shadows.
    case binarized
    /// Local-mean thresholding at full size: small modules that downscaling would merge.
    case binarizedFull = "binarized_full"
    /// Light/dark swapped (dark mode), for when zbar's own inverted test is off.
    case inverted
    /// Pixel-doubled: modules under 2 px.
    case upscaled
}

extension CascadeStep {
    /// Cost of a whole-frame step in pixels of a plain zbar pass over the frame (release build,
    /// public corpus): with zbar's inverted retry on, a pass that finds nothing scans twice.
    var relativeCost: Double {
        switch self {
        case .regionOfInterest, .located, .retries: 0  // priced per region
        case .original, .inverted: 2
        case .downscaled: 0.6      // a quarter of the pixels, twice, plus the averaging pass
        case .binarized: 0.7       // + thresholding
        case .binarizedFull: 2.4
        case .upscaled: 8
        }
    }

    /// Frame pixels per pixel of the image this step hands zbar, along each axis.
    var scale: Double {
        switch self {
        case .downscaled, .binarized: 2
        case .upscaled: 0.5
        default: 1
        }
    }
}

/// How the decoder works; the defaults are what measured best on the public corpus
/// (see README, Performance).
public struct DecoderConfiguration: Sendable, Equatable {
    public var symbologies: Symbologies = .qr
    /// Steps in order, cheapest and most productive first; the first step that reads a code
    /// ends the frame. A whole frame as it is (`.original`, twice the cost of a plain pass with
    /// zbar's inverted retry) never fits in what the default budget leaves, so it is not in
    /// the default; the 2x2-averaged frame is, for codes the locator misses.
    public var cascade: [CascadeStep] = [.regionOfInterest, .located, .retries, .downscaled]
    /// zbar's own retry on an inverted image when nothing was found (dark-mode tickets), on the
    /// whole-frame steps. Located regions do not need it: the locator sees their polarity.
    public var zbarTestsInverted = true
    /// The CPU budget for a 640x480 frame (all decoding threads together): an attempt predicted
    /// not to fit in what is left is skipped. Scaled by pixel count to the power 0.75 (about
    /// 2.3x at 1280x720), since larger frames usually show the code with larger modules.
    public var budgetPerVGA: Duration = .milliseconds(10)
    /// zbar's scan-line density on full-size steps (1 = every line; 2 halves the cost).
    public var fullSizeDensity = 1
    /// Payload size limit (see ``PayloadHygiene``).
    public var maximumPayloadBytes = PayloadHygiene.defaultMaximumBytes
    /// How many frames a read code keeps its region first in line, and an unread candidate its
    /// place in the retries.
    public var regionFrames = 15
    /// Decoding threads per frame: 2 spreads a frame's attempts over both of the station's
    /// cores (same results as 1, about half the wall time on frames that need retries).
    public var threads = 2
    /// At most this many retries per candidate and frame; an unread candidate goes on with the
    /// next retry on the next frame. `nil`: as many as the budget fits.
    public var retriesPerFrame: Int?

    public init() {}

    /// Plain zbar, configured well (binary payloads, inverted codes) but no retries.
    public static var singlePass: DecoderConfiguration {
        var config = DecoderConfiguration()
        config.cascade = [.original]
        config.threads = 1
        return config
    }

    /// The time budget for a frame of `pixelCount` pixels.
    public func budget(pixelCount: Int) -> Duration {
        budgetPerVGA * pow(Double(pixelCount) / 307_200.0, 0.75)
    }
}

/// What a code in a frame said.
public enum DecodedPayload: Sendable, Equatable, Hashable {
    /// Valid UTF-8 text without control characters, within the size limit.
    case text(String)
    /// A code was read, but its content must not be used (see ``PayloadHygiene/Rejection``).
    case unreadable(PayloadHygiene.Rejection)
}

/// One code found in a frame.
public struct DecodedCode: Sendable, Equatable {
    public var payload: DecodedPayload
    public var symbology: Symbologies
    /// Where it was, in frame coordinates (when zbar reported corner points).
    public var bounds: PixelRect?
}

/// The outcome of decoding one frame.
public struct DecodeResult: Sendable, Equatable {
    public var codes: [DecodedCode]
    /// Wall time spent on this frame.
    public var elapsed: Duration
    /// CPU time spent on this frame by every decoding thread together (what the budget counts).
    public var cpuTime: Duration
    /// The cascade step that found the codes; `nil` when nothing was found.
    public var step: CascadeStep?
    /// How many zbar passes ran (regions and whole frames).
    public var attempts: Int
}

/// Finds codes in grayscale frames with libzbar, within a per-frame CPU budget: a cheap
/// finder-pattern locator proposes regions, zbar reads those at the scale that suits their
/// modules, retries on unread regions continue where they stopped on the next frame, and
/// whole-frame passes are the fallback.
///
/// Not thread-safe (it owns a zbar scanner, a helper thread and what it remembers of the last
/// frames): use one per stream, e.g. inside a ``DecoderThread``.
/// ```swift
/// let decoder = QRDecoder()
/// let result = decoder.decode(try StillImage.load(path: "ticket.jpg"))
/// for code in result.codes { print(code.payload) }
/// ```
public final class QRDecoder {
    public let configuration: DecoderConfiguration
    private let scanner: ZBarScanner
    private let helper: HelperThread?
    private var memory: ScanMemory
    private let locator = CodeLocator()
    /// zbar's CPU cost per pixel, learnt across frames (see ``FrameLedger``).
    private var nanosecondsPerPixel = 30.0

    public init(configuration: DecoderConfiguration = DecoderConfiguration()) {
        self.configuration = configuration
        scanner = ZBarScanner(symbologies: configuration.symbologies)
        helper = configuration.threads > 1 ? HelperThread(symbologies: configuration.symbologies) : nil
        memory = ScanMemory(lifetime: configuration.regionFrames)
    }

    deinit { helper?.stop() }

    /// Decodes one frame. Frames of a stream should come in order: what was read or tried on
    /// one frame is tried first, or continued, on the next.
    public func decode(_ frame: GrayFrame) -> DecodeResult {
        let clock = ContinuousClock()
        let start = clock.now
        memory.advance()
        var ledger = FrameLedger(budget: configuration.budget(pixelCount: frame.pixels.count),
                                 nanosecondsPerPixel: nanosecondsPerPixel)
        var candidates: [CodeCandidate]?
        var found: [ReadCode] = []
        var foundBy: CascadeStep?
        for step in configuration.cascade where found.isEmpty {
            if ledger.attempts > 0 && ledger.spent >= ledger.budget { break }
            switch step {
            case .regionOfInterest:
                let attempts = memory.recentHits.flatMap { revisit($0, in: frame) }
                guard !attempts.isEmpty else { continue }
                found = run(attempts, frame, &ledger)
            case .located:
                if candidates == nil { candidates = locator.candidates(in: frame) }
                // Full sets of three finders (best first) get their plain look whatever the
                // budget: it is the cheapest attempt there is, and a frame with two codes
                // should not lose the second to a slow machine.
                let seen = candidates!.filter { !$0.guessed }
                let sets = seen.prefix { $0.finderCount == 3 }.count
                found = run(seen.map { .region($0, .plain) }, mandatory: min(sets, 4), frame, &ledger)
            case .retries:
                if candidates == nil { candidates = locator.candidates(in: frame) }
                found = retry(candidates!, frame, &ledger)
            default:
                found = run([.frame(step)], frame, &ledger)
            }
            if !found.isEmpty { foundBy = step }
        }
        nanosecondsPerPixel = ledger.nanosecondsPerPixel
        if !found.isEmpty {
            memory.remember(read: found)
        }
        return DecodeResult(codes: Self.unique(found.map(\.code)), elapsed: clock.now - start, cpuTime: ledger.spent,
                            step: foundBy, attempts: ledger.attempts)
    }

    /// Forgets what earlier frames taught (a new stream, or a camera that reconnected).
    public func reset() { memory.reset() }

    /// The attempts on the region where a code was read on a recent frame, the way it was read.
    /// The locator runs on that region alone (a tenth of the frame or less), so the finders
    /// are where the code is now and the module grid can be sampled again; where it finds no
    /// full set, the region itself is tried.
    private func revisit(_ hit: ScanMemory.Hit, in frame: GrayFrame) -> [ScanAttempt] {
        let fallback = ScanAttempt.region(hit.candidate, hit.variant == .resampled ? .plain : hit.variant)
        guard let (crop, origin) = frame.region(hit.candidate.region) else { return [fallback] }
        let sets = locator.candidates(in: crop).filter {
            $0.finderCount == 3 && $0.inverted == hit.candidate.inverted && hit.variant.applies(to: $0)
        }
        guard !sets.isEmpty else { return [fallback] }
        return sets.map { .region($0.moved(by: origin), hit.variant) }
    }

    /// The retries on candidates the plain pass could not read, two variants per round. Each
    /// candidate goes through the variants in turn starting where its retries stopped on an
    /// earlier frame, so a code held in front of the camera gets every retry within a few
    /// frames even when one frame's budget fits only one or two.
    ///
    /// Two per round, because a hard frame usually has one candidate: with one variant per
    /// round the helper thread had nothing to take, and two threads did those frames in 95 %
    /// of one thread's wall time (public corpus, frames with 4 or more attempts, median).
    private func retry(_ candidates: [CodeCandidate], _ frame: GrayFrame,
                       _ ledger: inout FrameLedger) -> [ReadCode] {
        let retries = RegionVariant.retries, perRound = 2
        let orders = candidates.map { candidate in
            let first = retries.firstIndex(of: memory.firstRetry(for: candidate)) ?? 0
            return (0..<retries.count).map { retries[(first + $0) % retries.count] }
                .filter { $0.applies(to: candidate) }
        }
        let limit = min(retries.count, configuration.retriesPerFrame ?? .max)
        var ran = Array(repeating: 0, count: candidates.count)
        var found: [ReadCode] = []
        for start in stride(from: 0, to: limit, by: perRound) where found.isEmpty {
            // Every candidate's first variant of the round before any second one: when the
            // budget runs short, each candidate has had its next retry.
            let steps = (start..<min(start + perRound, limit)).flatMap { index in
                candidates.indices.filter { index < orders[$0].count }.map { (member: $0, index: index) }
            }
            guard !steps.isEmpty else { break }
            let attempts = steps.map { ScanAttempt.region(candidates[$0.member], orders[$0.member][$0.index]) }
            let outcomes = runRound(attempts, frame, &ledger)
            for (step, outcome) in zip(steps, outcomes) where outcome != nil { ran[step.member] = max(ran[step.member], step.index + 1) }
            found = codes(from: zip(attempts, outcomes))
            if ledger.spent >= ledger.budget { break }
        }
        if found.isEmpty {
            memory.remember(unread: candidates.indices.compactMap { i in
                orders[i].isEmpty ? nil : (candidates[i], orders[i][ran[i] % orders[i].count])
            })
        }
        return found
    }

    /// Runs one round and returns the codes it read.
    private func run(_ attempts: [ScanAttempt], mandatory: Int = 0, _ frame: GrayFrame,
                     _ ledger: inout FrameLedger) -> [ReadCode] {
        codes(from: zip(attempts, runRound(attempts, mandatory: mandatory, frame, &ledger)))
    }

    /// Runs independent attempts within the budget, on this thread and the helper; outcomes
    /// in the attempts' order, `nil` where the budget skipped one.
    private func runRound(_ attempts: [ScanAttempt], mandatory: Int = 0, _ frame: GrayFrame,
                          _ ledger: inout FrameLedger) -> [AttemptOutcome?] {
        guard !attempts.isEmpty else { return [] }
        let round = AttemptRound(attempts, mandatory: mandatory, frame: frame, configuration: configuration, ledger: ledger)
        let helper = attempts.count > 1 ? helper : nil
        helper?.join(round)
        round.work(with: scanner, asHelper: false)
        helper?.waitUntilIdle()
        let result = round.result
        ledger = result.ledger
        return result.outcomes
    }

    private func codes(from results: some Sequence<(ScanAttempt, AttemptOutcome?)>) -> [ReadCode] {
        var codes: [ReadCode] = []
        for (attempt, outcome) in results {
            guard let outcome else { continue }
            for symbol in outcome.symbols {
                let code = DecodedCode(payload: Self.payload(symbol.bytes, limit: configuration.maximumPayloadBytes),
                                       symbology: symbol.isQR ? .qr : .code128, bounds: symbol.bounds)
                switch attempt {
                case .region(let candidate, let variant):
                    codes.append(ReadCode(code: code, moduleSize: candidate.moduleSize, inverted: candidate.inverted, variant: variant))
                case .frame(let step):
                    // Read at this step's scale: the region next time is shrunk the same way.
                    codes.append(ReadCode(code: code, moduleSize: RegionVariant.targetModule * max(1, step.scale),
                                          inverted: step == .inverted, variant: .plain))
                }
            }
        }
        return codes
    }

    /// A code read on this frame, with how it was read (what the next frame tries first).
    struct ReadCode {
        var code: DecodedCode
        var moduleSize: Double
        var inverted: Bool
        var variant: RegionVariant
    }

    static func payload(_ bytes: [UInt8], limit: Int) -> DecodedPayload {
        switch PayloadHygiene.check(bytes, maximumBytes: limit) {
        case .success(let text): .text(text)
        case .failure(let rejection): .unreadable(rejection.reason)
        }
    }

    private static func unique(_ codes: [DecodedCode]) -> [DecodedCode] {
        var seen = Set<DecodedPayload>()
        return codes.filter { seen.insert($0.payload).inserted }
    }
}
