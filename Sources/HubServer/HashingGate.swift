import Dispatch
import Foundation
import HTTPTypes
import Synchronization

/// Password hashing (about 0.3 s of CPU each at 600,000 rounds) off the cooperative thread pool,
/// a bounded number at a time: unauthenticated sign-ins can never take every core, or the
/// threads every other route runs on.
///
/// Hashes wait in lanes (``Lane``): when a place frees, staff administration goes first, then
/// sign-ins to known accounts, then the decoy hashes of unknown e-mails, which may also hold at
/// most half the places. A flood of made-up e-mails therefore delays a real sign-in by one hash
/// at most, and the staff page's password changes not at all. Beyond a lane's queue, the hash is
/// refused at once: 503 with `Retry-After: 1`.
package final class HashingGate: Sendable {
    /// Who a hash is for, in the order places are handed out.
    package enum Lane: Int, CaseIterable, Sendable {
        /// An organizer setting a password on the staff page.
        case administration
        /// A sign-in to an account that exists.
        case knownAccount
        /// The decoy hash of a sign-in to an e-mail of no account.
        case unknownAccount
    }

    private struct State {
        var running = 0
        var runningUnknown = 0
        var waiting: [[CheckedContinuation<Void, Never>]] = Array(repeating: [], count: Lane.allCases.count)
        /// Recent sign-ins' time in the gate (waiting and hashing), averaged.
        var typical: Duration?
    }

    private let state = Mutex(State())
    let limit: Int
    let maximumWaiting: Int
    /// At most this many decoy hashes at once, and this many queued.
    let unknownLimit: Int
    let unknownWaiting: Int

    /// - Parameters:
    ///   - limit: hashes at once; by default one core fewer than the machine has.
    ///   - maximumWaiting: hashes queued per lane (``unknownWaiting`` for decoys).
    init(limit: Int = max(1, ProcessInfo.processInfo.activeProcessorCount - 1), maximumWaiting: Int = 256, unknownWaiting: Int = 16) {
        self.limit = limit
        self.maximumWaiting = maximumWaiting
        self.unknownLimit = max(1, limit / 2)
        self.unknownWaiting = unknownWaiting
    }

    /// Hashes running and waiting now.
    var load: (running: Int, waiting: Int) { state.withLock { ($0.running, $0.waiting.reduce(0) { $0 + $1.count }) } }

    /// How long a sign-in's hash takes here lately, waiting included (before any: a quarter second):
    /// what a refused decoy waits instead, so its answer takes as long.
    var typicalSignIn: Duration { state.withLock { $0.typical ?? .milliseconds(250) } }

    /// Runs `work` when `lane` gets a place.
    /// - Throws: ``HubProblem`` 503 when the lane's queue is full.
    package func run<T: Sendable>(in lane: Lane = .knownAccount, _ work: @escaping @Sendable () -> T) async throws -> T {
        let start = ContinuousClock.now
        try await enter(lane)
        defer { leave(lane) }
        let result = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
        if lane != .administration { remember(ContinuousClock.now - start) }
        return result
    }

    private func canRun(_ lane: Lane, _ state: State) -> Bool {
        state.running < limit && (lane != .unknownAccount || state.runningUnknown < unknownLimit)
    }

    private static func take(_ lane: Lane, _ state: inout State) {
        state.running += 1
        if lane == .unknownAccount { state.runningUnknown += 1 }
    }

    private func enter(_ lane: Lane) async throws {
        enum Admission { case now, queue, refuse }
        let admission: Admission = state.withLock { state in
            if canRun(lane, state) {
                Self.take(lane, &state)
                return .now
            }
            return state.waiting[lane.rawValue].count < (lane == .unknownAccount ? unknownWaiting : maximumWaiting) ? .queue : .refuse
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
                    if canRun(lane, state) {
                        Self.take(lane, &state)
                        return true
                    }
                    state.waiting[lane.rawValue].append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    /// Gives the place back and hands places to the first waiting hashes of the highest lanes
    /// that may run (a decoy's place may go to a sign-in; a sign-in's to a decoy only within its share).
    private func leave(_ lane: Lane) {
        let next = state.withLock { state in
            state.running -= 1
            if lane == .unknownAccount { state.runningUnknown -= 1 }
            var woken: [CheckedContinuation<Void, Never>] = []
            for waiting in Lane.allCases where !state.waiting[waiting.rawValue].isEmpty {
                while !state.waiting[waiting.rawValue].isEmpty, canRun(waiting, state) {
                    Self.take(waiting, &state)
                    woken.append(state.waiting[waiting.rawValue].removeFirst())
                }
            }
            return woken
        }
        for continuation in next { continuation.resume() }
    }

    private func remember(_ elapsed: Duration) {
        state.withLock { state in
            // A moving average: a tenth of each new sign-in.
            state.typical = state.typical.map { $0 * 0.9 + elapsed * 0.1 } ?? elapsed
        }
    }
}
