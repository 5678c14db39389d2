import Logging
import Synchronization

/// Refused connections for the log: the first at once, then a count at most once a minute, so a
/// flood cannot flood the journal too.
final class RefusalLog: Sendable {
    private let state = Mutex((pending: 0, last: ContinuousClock.Instant?.none))
    let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    func note(_ refusal: ConnectionGate.Refusal, now: ContinuousClock.Instant = .now) {
        let count: Int? = state.withLock { state in
            state.pending += 1
            if let last = state.last, now - last < .seconds(60) { return nil }
            defer { state = (0, now) }
            return state.pending
        }
        guard let count else { return }
        let cap = switch refusal {
        case .total(let maximum): "total \(maximum)"
        case .client(let maximum): "per client \(maximum)"
        }
        logger.warning("connections refused at the cap", metadata: ["refused": "\(count)", "cap": "\(cap)"])
    }
}
