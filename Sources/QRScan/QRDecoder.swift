import Foundation

/// One attempt of the decoder's cascade: a transform of the frame handed to zbar.
public enum CascadeStep: String, Sendable, CaseIterable, Codable {
    /// Around where the last code was seen (cropped): cheap, and what a held phone needs.
    case regionOfInterest = "roi"
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

/// How the decoder works; the defaults are what measured best on the public corpus
/// (see README, Performance).
public struct DecoderConfiguration: Sendable, Equatable {
    public var symbologies: Symbologies = .qr
    /// Attempts in order, cheapest and most productive first.
    public var cascade: [CascadeStep] = [.regionOfInterest, .original, .downscaled, .binarized]
    /// zbar's own retry on an inverted image when nothing was found.
    public var zbarTestsInverted = true
    /// No new attempt starts after this much time per 640x480 frame; scaled by pixel count.
    public var budgetPerVGA: Duration = .milliseconds(12)
    /// Payload size limit (see ``PayloadHygiene``).
    public var maximumPayloadBytes = PayloadHygiene.defaultMaximumBytes
    /// How many frames a hit keeps the region of interest alive.
    public var regionFrames = 15

    public init() {}

    /// Plain zbar, configured well (binary payloads, inverted codes) but no retries.
    public static var singlePass: DecoderConfiguration {
        var config = DecoderConfiguration()
        config.cascade = [.original]
        return config
    }

    /// The time budget for a frame of `pixelCount` pixels.
    public func budget(pixelCount: Int) -> Duration {
        budgetPerVGA * (Double(pixelCount) / 307_200.0)
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
    /// The cascade step that found the codes; `nil` when nothing was found.
    public var step: CascadeStep?
    /// How many cascade steps ran.
    public var attempts: Int
}

/// Finds codes in grayscale frames with libzbar, through a cascade of retries within a per-frame
/// time budget.
///
/// Not thread-safe (it owns a zbar scanner and remembers the last hit): use one per thread,
/// e.g. inside a ``DecoderThread``.
/// ```swift
/// let decoder = QRDecoder()
/// let result = decoder.decode(try StillImage.load(path: "ticket.jpg"))
/// for code in result.codes { print(code.payload) }
/// ```
public final class QRDecoder {
    public let configuration: DecoderConfiguration
    private let scanner: ZBarScanner
    private var lastHit: (rect: PixelRect, frame: Int)?
    private var frameCounter = 0

    public init(configuration: DecoderConfiguration = DecoderConfiguration()) {
        self.configuration = configuration
        scanner = ZBarScanner(symbologies: configuration.symbologies)
        scanner.setTestInverted(configuration.zbarTestsInverted)
    }

    /// Decodes one frame. Frames of a stream should come in order: the region of interest
    /// follows the last hit.
    public func decode(_ frame: GrayFrame) -> DecodeResult {
        let clock = ContinuousClock()
        let start = clock.now
        frameCounter += 1
        let budget = configuration.budget(pixelCount: frame.pixels.count)
        var attempts = 0
        for step in configuration.cascade {
            if attempts > 0, clock.now - start >= budget { break }
            guard let (image, offset, scale) = prepare(step, frame) else { continue }
            attempts += 1
            let symbols = scanner.scan(image)
            guard !symbols.isEmpty else { continue }
            let codes = symbols.map { symbol in
                DecodedCode(
                    payload: Self.payload(symbol.bytes, limit: configuration.maximumPayloadBytes),
                    symbology: symbol.isQR ? .qr : .code128,
                    bounds: symbol.bounds.map {
                        PixelRect(x: Int(Double($0.x) * scale) + offset.x, y: Int(Double($0.y) * scale) + offset.y,
                                  width: Int(Double($0.width) * scale), height: Int(Double($0.height) * scale))
                    })
            }
            if let bounds = codes.compactMap(\.bounds).first { lastHit = (bounds, frameCounter) }
            return DecodeResult(codes: Self.unique(codes), elapsed: clock.now - start, step: step, attempts: attempts)
        }
        return DecodeResult(codes: [], elapsed: clock.now - start, step: nil, attempts: attempts)
    }

    /// Forgets the last hit (a new stream, or a camera that reconnected).
    public func reset() { lastHit = nil }

    private func prepare(_ step: CascadeStep, _ frame: GrayFrame) -> (GrayFrame, (x: Int, y: Int), Double)? {
        switch step {
        case .original: return (frame, (0, 0), 1)
        case .downscaled: return (frame.downscaled2x(), (0, 0), 2)
        case .binarized: return (frame.downscaled2x().binarizedAdaptive(), (0, 0), 2)
        case .binarizedFull: return (frame.binarizedAdaptive(), (0, 0), 1)
        case .inverted: return (frame.inverted(), (0, 0), 1)
        case .upscaled: return (frame.upscaled2x(), (0, 0), 0.5)
        case .regionOfInterest:
            guard let hit = lastHit, frameCounter - hit.frame <= configuration.regionFrames else { return nil }
            // The code plus its own size around it: room for a hand that moves.
            let rect = PixelRect(x: hit.rect.x - hit.rect.width, y: hit.rect.y - hit.rect.height,
                                 width: hit.rect.width * 3, height: hit.rect.height * 3)
            guard let crop = frame.cropped(to: rect), crop.pixels.count < frame.pixels.count / 2 else { return nil }
            return (crop, (max(0, rect.x), max(0, rect.y)), 1)
        }
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
