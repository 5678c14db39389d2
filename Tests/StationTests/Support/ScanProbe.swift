import Foundation
import OperatorConsole
@testable import Station
import Synchronization

/// Runs a dedicated scanner's read loop on a thread of its own (as its `inputs()` does, without
/// the cooperative pool, which a loaded test run can starve) and keeps what it reports, so a
/// test can wait for the input it expects; ``stop()`` is the station's shutdown.
final class ScanProbe: Sendable {
    private let received = Mutex<[ScanInput]>([])
    private let cursor = Mutex(0)
    private let stopSignal = StopSignal()

    init(_ source: ScannerScanSource) {
        let thread = Thread { [self] in
            source.run(stop: stopSignal) { input in received.withLock { $0.append(input) } }
        }
        thread.name = "test.scanner"
        thread.start()
    }

    var inputs: [ScanInput] { received.withLock { $0 } }

    /// The next input after the last one waited for that satisfies `matches` (blocks: suites
    /// using it run under `.blocking`).
    @discardableResult
    func next(seconds: Double = 30, where matches: (ScanInput) -> Bool) throws -> ScanInput {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let start = cursor.withLock { $0 }
            let inputs = self.inputs
            if let index = inputs.indices.dropFirst(start).first(where: { matches(inputs[$0]) }) {
                cursor.withLock { $0 = index + 1 }
                return inputs[index]
            }
            if Date() >= deadline { throw ProbeTimeout(inputs: inputs) }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// The next code from the scanner.
    func nextCode(seconds: Double = 30) throws -> String {
        guard case .scan(let scan) = try next(seconds: seconds, where: { if case .scan = $0 { true } else { false } }) else { return "" }
        return scan.code
    }

    /// Ends the read loop (its thread holds the probe until then).
    func stop() {
        stopSignal.signal()
    }
}

struct ProbeTimeout: Error, CustomStringConvertible {
    var inputs: [ScanInput]
    var description: String { "the expected input never came; received: \(inputs)" }
}
