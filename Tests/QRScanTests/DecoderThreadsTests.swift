import Foundation
import Testing
@testable import QRScan

/// The helper thread changes how fast a frame is done, never what is read from it.
@Suite struct DecoderThreadsTests {
    let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// Frames that exercise every step: plain reads, retries, the module grid, pairs of finders,
    /// several codes, and none.
    func frames() throws -> [GrayFrame] {
        let payload = "FZANNGZVZWUTEHEX77XZRR5IMSTW2RZT"
        var two = GrayFrame(width: 1280, height: 720, fill: 200)
        QRFixtures.draw(payload, into: &two, .init(modulePixels: 5, centerX: 300, centerY: 360))
        QRFixtures.draw("TICKET-0002", into: &two, .init(modulePixels: 6, rotationDegrees: 25, centerX: 950, centerY: 330))
        var generated = [
            QRFixtures.frame(payload),
            QRFixtures.frame(payload, .init(modulePixels: 6, rotationDegrees: 10, noise: 4, blur: 4)),
            QRFixtures.frame(payload, .init(modulePixels: 2.6, rotationDegrees: 10, noise: 20, blur: 1)),
            QRFixtures.frame(payload, .init(modulePixels: 4, noise: 50, seed: 1)),
            QRFixtures.frame(payload, .init(inverted: true)),
            two,
            GrayFrame(width: 640, height: 480, fill: 128),
        ]
        let stills = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter { $0.hasSuffix(".jpg") }.sorted()
        for name in stills { generated.append(try StillImage.load(path: fixtures.appendingPathComponent(name).path)) }
        return generated
    }

    @Test func twoThreadsReadExactlyWhatOneThreadReads() throws {
        var one = DecoderConfiguration()
        one.threads = 1
        one.budgetPerVGA = .seconds(10)  // every attempt runs: the budget is CPU time, and not under test
        var two = one
        two.threads = 2
        let single = QRDecoder(configuration: one), double = QRDecoder(configuration: two)
        for (index, frame) in try frames().enumerated() {
            single.reset()
            double.reset()
            let a = single.decode(frame), b = double.decode(frame)
            #expect(a.codes == b.codes, "frame \(index)")
            #expect(a.step == b.step, "frame \(index)")
            #expect(a.attempts == b.attempts, "frame \(index)")
        }
    }

    @Test func aDefocusedCodeWhoseThirdFinderIsLostIsReadFromItsModuleGrid() {
        let payload = "FZANNGZVZWUTEHEX77XZRR5IMSTW2RZT"
        let frame = QRFixtures.frame(payload, .init(modulePixels: 6, rotationDegrees: 10, noise: 4, blur: 4))
        var config = DecoderConfiguration()
        config.budgetPerVGA = .seconds(10)
        #expect(QRDecoder(configuration: .singlePass).decode(frame).codes.isEmpty)
        let result = QRDecoder(configuration: config).decode(frame)
        #expect(result.codes.texts == [payload])
        #expect(result.step == .retries)
    }
}
