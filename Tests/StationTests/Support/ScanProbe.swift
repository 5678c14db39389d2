import Foundation
import OperatorConsole
import Station
import Synchronization

/// Reads a scan source's inputs in the background, so a test can wait for the one it expects;
/// ``stop()`` ends the stream as the station's shutdown does.
final class ScanProbe: Sendable {
    private let received = Mutex<[ScanInput]>([])
    private let cursor = Mutex(0)
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(_ source: any ScanSource) {
        let stream = source.inputs()
        let reading = Task { [self] in
            for await input in stream { received.withLock { $0.append(input) } }
        }
        task.withLock { $0 = reading }
    }

    var inputs: [ScanInput] { received.withLock { $0 } }

    /// The next input after the last one waited for that satisfies `matches`.
    @discardableResult
    func next(seconds: Double = 20, where matches: (ScanInput) -> Bool) async throws -> ScanInput {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            let start = cursor.withLock { $0 }
            let inputs = self.inputs
            if let index = inputs.indices.dropFirst(start).first(where: { matches(inputs[$0]) }) {
                cursor.withLock { $0 = index + 1 }
                return inputs[index]
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw ProbeTimeout(inputs: inputs)
    }

    /// The next code from the scanner.
    func nextCode(seconds: Double = 20) async throws -> String {
        guard case .scan(let scan) = try await next(seconds: seconds, where: { if case .scan = $0 { true } else { false } }) else { return "" }
        return scan.code
    }

    func stop() {
        task.withLock { $0?.cancel() }
    }

    deinit { stop() }
}

struct ProbeTimeout: Error, CustomStringConvertible {
    var inputs: [ScanInput]
    var description: String { "the expected input never came; received: \(inputs)" }
}
