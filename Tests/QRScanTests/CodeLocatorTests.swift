import Foundation
import Testing
@testable import QRScan

/// The finder-pattern locator on generated frames: where it says a code is, and where it
/// says none is.
@Suite struct CodeLocatorTests {
    let payload = "FZANNGZVZWUTEHEX77XZRR5IMSTW2RZT"

    /// Whether `candidate`'s region holds the whole code drawn with `options` (module grid
    /// of `modules` per side, quiet zone not counted).
    func covers(_ candidate: CodeCandidate, _ options: QRFixtures.Options, modules: Int) -> Bool {
        let cx = options.centerX ?? Double(options.width) / 2, cy = options.centerY ?? Double(options.height) / 2
        // Half the width of the rotated code's bounding box.
        let angle = options.rotationDegrees * .pi / 180
        let reach = Double(modules) * options.modulePixels / 2 * (abs(cos(angle)) + abs(sin(angle)))
        let r = candidate.region
        return Double(r.x) <= cx - reach + 1 && Double(r.y) <= cy - reach + 1
            && Double(r.x + r.width) >= cx + reach - 1 && Double(r.y + r.height) >= cy + reach - 1
    }

    @Test("one code is one full set of finders, wherever it is, whatever its size and rotation",
          arguments: [
            QRFixtures.Options(modulePixels: 4),
            QRFixtures.Options(modulePixels: 2.5, centerX: 120, centerY: 100),
            QRFixtures.Options(modulePixels: 8, centerX: 420, centerY: 250),
            QRFixtures.Options(modulePixels: 5, rotationDegrees: 30),
            QRFixtures.Options(modulePixels: 5, rotationDegrees: 45, centerX: 200, centerY: 300),
            QRFixtures.Options(modulePixels: 3.5, rotationDegrees: 137, width: 1280, height: 720, centerX: 1000, centerY: 500),
            QRFixtures.Options(modulePixels: 6, rotationDegrees: 250, noise: 16, width: 1280, height: 720, centerX: 300),
            QRFixtures.Options(modulePixels: 5, dark: 110, light: 150),
          ])
    func oneCodeIsOneFullSet(options: QRFixtures.Options) throws {
        let modules = QRFixtures.modules(payload).count
        let candidates = CodeLocator().candidates(in: QRFixtures.frame(payload, options))
        let first = try #require(candidates.first)
        #expect(first.finderCount == 3)
        #expect(candidates.filter { $0.finderCount == 3 }.count == 1)
        #expect(covers(first, options, modules: modules))
        #expect(abs(first.moduleSize - options.modulePixels) <= options.modulePixels * 0.3)
        #expect(first.size == modules, "module count estimated from the finders")
        #expect(!first.inverted)
    }

    @Test func aDarkModeCodeIsFoundWithItsPolarity() throws {
        let options = QRFixtures.Options(modulePixels: 5, rotationDegrees: 12, inverted: true)
        let first = try #require(CodeLocator().candidates(in: QRFixtures.frame(payload, options)).first)
        #expect(first.finderCount == 3)
        #expect(first.inverted)
    }

    @Test func twoCodesAreTwoSetsEachAroundItsCode() {
        var frame = GrayFrame(width: 1280, height: 720, fill: 200)
        let left = QRFixtures.Options(modulePixels: 5, rotationDegrees: 8, width: 1280, height: 720, centerX: 300, centerY: 360)
        let right = QRFixtures.Options(modulePixels: 6, rotationDegrees: -20, width: 1280, height: 720, centerX: 950, centerY: 330)
        QRFixtures.draw(payload, into: &frame, left)
        QRFixtures.draw("TICKET-0002", into: &frame, right)
        let sets = CodeLocator().candidates(in: frame).filter { $0.finderCount == 3 }
        #expect(sets.count == 2)
        #expect(sets.contains { covers($0, left, modules: QRFixtures.modules(payload).count) })
        #expect(sets.contains { covers($0, right, modules: QRFixtures.modules("TICKET-0002").count) })
    }

    @Test("frames without a code propose no full set of finders",
          arguments: ["blank", "noise", "checkerboard", "stripes"])
    func framesWithoutACodeProposeNothing(kind: String) {
        var frame = GrayFrame(width: 640, height: 480, fill: 180)
        var rng = SeededGenerator(seed: 11)
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                switch kind {
                case "noise": frame[x, y] = UInt8(truncatingIfNeeded: rng.next())
                case "checkerboard": frame[x, y] = (x / 6 + y / 6) % 2 == 0 ? 30 : 220
                case "stripes": frame[x, y] = [30, 220, 30, 30, 30, 220, 30][(x / 5) % 7]
                default: break
                }
            }
        }
        #expect(CodeLocator().candidates(in: frame).filter { $0.finderCount == 3 }.isEmpty)
    }
}
