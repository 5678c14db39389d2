import Dispatch
import Foundation
import HTTPTypes
import Synchronization

/// Password hashing (about 0.3 s of CPU each at 600,000 rounds) off the cooperative thread pool,
/// a bounded number at a time: unauthenticated sign-ins can never take every core, or the
/// threads every other route runs on. Beyond ``maximumWaiting`` queued, a sign-in is answered
/// 503 with `Retry-After: 1` at once.
final class HashingGate: Sendable {
    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    let limit: Int
    let maximumWaiting: Int

    /// - Parameter limit: hashes at once; by default one core fewer than the machine has.
    init(limit: Int = max(1, ProcessInfo.processInfo.activeProcessorCount - 1), maximumWaiting: Int = 256) {
        self.limit = limit
        self.maximumWaiting = maximumWaiting
    }

    /// Hashes running and waiting now.
    var load: (running: Int, waiting: Int) { state.withLock { ($0.running, $0.waiting.count) } }

    func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        try await enter()
        defer { leave() }
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }

    private func enter() async throws {
        enum Admission { case now, queue, refuse }
        let admission: Admission = state.withLock { state in
            if state.running < limit {
                state.running += 1
                return .now
            }
            return state.waiting.count < maximumWaiting ? .queue : .refuse
        }
        switch admission {
        case .now: return
        case .refuse:
            var problem = HubProblem(.serviceUnavailable, "Busy", detail: "Too many sign-ins at once; retry in 1 s.")
            problem.retryAfterSeconds = 1
            throw problem
        case .queue:
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    if state.running < limit {
                        state.running += 1
                        return true
                    }
                    state.waiting.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    /// Hands the slot to the next waiting hash, or gives it back.
    private func leave() {
        let next = state.withLock { state in
            if state.waiting.isEmpty {
                state.running -= 1
                return CheckedContinuation<Void, Never>?.none
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
