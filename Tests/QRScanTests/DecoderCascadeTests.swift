import Foundation
import Testing
@testable import QRScan

@Suite struct DecoderCascadeTests {
    let payload = "FZANNGZVZWUTEHEX77XZRR5IMSTW2RZT"

    @Test("generated codes decode in clean, rotated, noisy, low-contrast, small and inverted frames",
          arguments: [
            ("clean", QRFixtures.Options()),
            ("rotated 33°", QRFixtures.Options(rotationDegrees: 33)),
            ("noisy", QRFixtures.Options(noise: 14, seed: 7)),
            ("low contrast", QRFixtures.Options(dark: 110, light: 150)),
            ("small modules", QRFixtures.Options(modulePixels: 2.5)),
            ("inverted (dark mode)", QRFixtures.Options(inverted: true)),
            ("1280x720", QRFixtures.Options(modulePixels: 6, width: 1280, height: 720)),
          ])
    func decodesGeneratedFrames(name: String, options: QRFixtures.Options) {
        let result = QRDecoder().decode(QRFixtures.frame(payload, options))
        #expect(result.codes.texts == [payload], "\(name)")
    }

    @Test func utf8PayloadsInByteModeComeBackExactlyNotAsShiftJIS() {
        let name = "Zoë Ünal-Øster · 東京 ✓"
        let result = QRDecoder().decode(QRFixtures.frame(name, .init(modulePixels: 5)))
        #expect(result.codes.texts == [name])
    }

    @Test func aFrameWithoutACodeYieldsNothing() {
        var frame = GrayFrame(width: 640, height: 480, fill: 128)
        var rng = SeededGenerator(seed: 3)
        for i in frame.pixels.indices { frame.pixels[i] = UInt8(truncatingIfNeeded: rng.next()) }
        let result = QRDecoder().decode(frame)
        #expect(result.codes.isEmpty)
        #expect(result.step == nil)
    }

    @Test func theCascadeStopsAtTheFirstStepThatFindsACode() {
        // The locator's region is read at once: one zbar pass, no whole-frame step.
        let result = QRDecoder().decode(QRFixtures.frame(payload))
        #expect(result.step == .located)
        #expect(result.attempts == 1)
    }

    @Test func retriesRunWhenTheFirstAttemptFindsNothing() {
        // A frame where plain zbar fails: heavy noise. The 2x2-averaged retry evens it out.
        let frame = QRFixtures.frame(payload, .init(modulePixels: 4, noise: 50, seed: 1))
        let single = QRDecoder(configuration: .singlePass).decode(frame)
        var generous = DecoderConfiguration()
        generous.budgetPerVGA = .seconds(10)  // debug builds are slow; the budget is not under test here
        let cascade = QRDecoder(configuration: generous).decode(frame)
        #expect(single.codes.isEmpty)
        #expect(cascade.codes.texts == [payload])
        #expect(cascade.step != .original)
        #expect(cascade.attempts > 1)
    }

    @Test func noRetryStartsOnceTheTimeBudgetIsSpent() {
        var config = DecoderConfiguration()
        config.budgetPerVGA = .zero
        let blank = GrayFrame(width: 640, height: 480, fill: 200)
        #expect(QRDecoder(configuration: config).decode(blank).attempts == 1)
        config.budgetPerVGA = .seconds(10)
        // With time to spare every whole-frame step runs; roi needs a previous hit, and a blank
        // frame gives the locator nothing to propose.
        #expect(QRDecoder(configuration: config).decode(blank).attempts == config.cascade.filter { $0.scansWholeFrame }.count)
    }

    @Test func theRegionAroundTheLastHitIsTriedFirstOnTheNextFrame() {
        let decoder = QRDecoder()
        let options = QRFixtures.Options(modulePixels: 4, width: 1280, height: 720, centerX: 300, centerY: 250)
        #expect(decoder.decode(QRFixtures.frame(payload, options)).step == .located)
        var moved = options
        moved.centerX = 320
        let next = decoder.decode(QRFixtures.frame(payload, moved))
        #expect(next.step == .regionOfInterest)
        #expect(next.codes.texts == [payload])
        let bounds = try? #require(next.codes.first?.bounds)
        #expect(bounds.map { abs($0.x + $0.width / 2 - 320) < 20 } == true, "bounds in frame coordinates")
    }

    @Test func pixelDoublingRescuesModulesOfAboutTwoPixels() {
        let frame = QRFixtures.frame(payload, .init(modulePixels: 2.2))
        var config = DecoderConfiguration()
        config.cascade = [.original, .upscaled]
        config.budgetPerVGA = .seconds(10)
        #expect(QRDecoder(configuration: .singlePass).decode(frame).codes.isEmpty)
        let result = QRDecoder(configuration: config).decode(frame)
        #expect(result.codes.texts == [payload])
        #expect(result.step == .upscaled)
    }

    @Test func code128IsFoundOnlyWhenSwitchedOn() {
        // Code 128 is off by default; turning it on does not break QR decoding.
        var config = DecoderConfiguration()
        config.symbologies = [.qr, .code128]
        #expect(QRDecoder(configuration: config).decode(QRFixtures.frame(payload)).codes.texts == [payload])
    }
}
