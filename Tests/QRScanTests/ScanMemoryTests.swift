import Testing
@testable import QRScan

/// What the decoder carries from frame to frame of one stream.
@Suite struct ScanMemoryTests {
    let payload = "FZANNGZVZWUTEHEX77XZRR5IMSTW2RZT"

    func candidate(x: Int, y: Int, module: Double = 5, inverted: Bool = false) -> CodeCandidate {
        CodeCandidate(region: PixelRect(x: x, y: y, width: 250, height: 250), moduleSize: module, inverted: inverted, finders: [])
    }

    @Test func anUnreadCandidateGoesOnWithItsNextRetryWhenItMovesALittle() {
        var memory = ScanMemory()
        memory.advance()
        memory.remember(unread: [(candidate(x: 100, y: 100), .sharpened)])
        memory.advance()
        #expect(memory.firstRetry(for: candidate(x: 112, y: 95)) == .sharpened)
        // Another code: elsewhere, another module size or the other polarity.
        #expect(memory.firstRetry(for: candidate(x: 400, y: 100)) == RegionVariant.retries[0])
        #expect(memory.firstRetry(for: candidate(x: 100, y: 100, module: 9)) == RegionVariant.retries[0])
        #expect(memory.firstRetry(for: candidate(x: 100, y: 100, inverted: true)) == RegionVariant.retries[0])
    }

    @Test func whatIsRememberedFadesAfterItsLifetimeAndOnReset() {
        var memory = ScanMemory(lifetime: 3)
        memory.advance()
        memory.remember(unread: [(candidate(x: 100, y: 100), .sharpened)])
        for _ in 0..<3 { memory.advance() }
        #expect(memory.firstRetry(for: candidate(x: 100, y: 100)) == .sharpened)
        memory.advance()
        #expect(memory.firstRetry(for: candidate(x: 100, y: 100)) == RegionVariant.retries[0])
        memory.remember(unread: [(candidate(x: 100, y: 100), .sharpened)])
        memory.reset()
        #expect(memory.firstRetry(for: candidate(x: 100, y: 100)) == RegionVariant.retries[0])
    }

    @Test func aCodeHeldInFrontOfTheCameraGetsEveryRetryOverSeveralFrames() {
        // Small, soft and noisy: of the retries only the enlarged one reads it, and it is the
        // fourth in turn. One retry per frame: the memory carries the turn from frame to frame.
        let frame = QRFixtures.frame(payload, .init(modulePixels: 2.6, rotationDegrees: 10, noise: 20, blur: 1))
        var config = DecoderConfiguration()
        config.budgetPerVGA = .seconds(10)  // debug builds are slow; the budget is not under test
        config.retriesPerFrame = 1
        config.cascade = [.regionOfInterest, .located, .retries]
        let decoder = QRDecoder(configuration: config)
        let results = (0..<4).map { _ in decoder.decode(frame) }
        #expect(results.map { $0.codes.texts } == [[], [], [], [payload]])
        #expect(results.last?.step == .retries)
        // Without the memory (a fresh stream each frame) the same retry comes first every time.
        let forgetful = QRDecoder(configuration: config)
        let alone = (0..<4).map { _ in
            forgetful.reset()
            return forgetful.decode(frame).codes.texts
        }
        #expect(alone == [[], [], [], []])
    }

    @Test func theNextFrameReadsTheCodeWhereItWasAndAsItWasRead() {
        let decoder = QRDecoder()
        var options = QRFixtures.Options(modulePixels: 5, width: 1280, height: 720, centerX: 500, centerY: 300)
        #expect(decoder.decode(QRFixtures.frame(payload, options)).step == .located)
        options.centerX = 520
        options.centerY = 310
        let next = decoder.decode(QRFixtures.frame(payload, options))
        #expect(next.step == .regionOfInterest)
        #expect(next.codes.texts == [payload])
        #expect(next.attempts == 1)
        decoder.reset()
        #expect(decoder.decode(QRFixtures.frame(payload, options)).step == .located)
    }
}
