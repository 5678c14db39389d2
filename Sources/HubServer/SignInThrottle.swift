import Crypto
import Synchronization

/// Wrong passwords cost the guesser time: per account (and, with other limits, per client address), the first ``Limits/freeFailures``
/// failures in a row are free, then each attempt waits a delay that doubles with every further
/// failure (1 s, 2 s, 4 s… up to ``Limits/longestWait``), answered 429 with `Retry-After`. A
/// success clears the account. Per process, like the request limiter.
///
/// Memory stays bounded whatever is sent: accounts are kept as the SHA-256 of the lower-cased
/// e-mail, at most ``Limits/capacity`` of them; beyond it the least recently failed are dropped.
public final class SignInThrottle: Sendable {
    public struct Limits: Sendable, Equatable {
        /// Failures in a row allowed without waiting; 0 turns the throttle off.
        public var freeFailures: Int
        /// The wait after the first failure beyond the free ones; it doubles with each further one.
        public var firstWait: Duration
        public var longestWait: Duration
        public var capacity: Int
        /// Failures this long ago are forgotten at the next one (`nil`: only a success clears).
        public var forgetAfter: Duration?

        public init(freeFailures: Int = 5, firstWait: Duration = .seconds(1), longestWait: Duration = .seconds(300), capacity: Int = 10_000,
                    forgetAfter: Duration? = nil) {
            self.freeFailures = freeFailures
            self.firstWait = firstWait
            self.longestWait = longestWait
            self.capacity = capacity
            self.forgetAfter = forgetAfter
        }

        /// How long the next attempt must wait after `failures` failures in a row (the decision).
        public func wait(afterFailures failures: Int) -> Duration {
            guard freeFailures > 0, failures >= freeFailures else { return .zero }
            let doublings = min(failures - freeFailures, 30)
            return min(firstWait * (1 << doublings), longestWait)
        }
    }

    private struct Record {
        var failures: Int
        var lastFailure: ContinuousClock.Instant
    }

    public let limits: Limits
    private let records = Mutex([String: Record]())

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Whole seconds until `email` may try again, or `nil` when it may now.
    package func secondsToWait(_ email: String, now: ContinuousClock.Instant = .now) -> Int? {
        let key = Self.key(email)
        return records.withLock { records in
            guard let record = records[key] else { return nil }
            let remaining = record.lastFailure + limits.wait(afterFailures: record.failures) - now
            guard remaining > .zero else { return nil }
            // Rounded up: a client that waits what it is told is let in.
            return Int(remaining.components.seconds) + (remaining.components.attoseconds > 0 ? 1 : 0)
        }
    }

    package func failed(_ email: String, now: ContinuousClock.Instant = .now) {
        let key = Self.key(email)
        records.withLock { records in
            if let forget = limits.forgetAfter, let last = records[key]?.lastFailure, now - last > forget { records[key] = nil }
            records[key, default: Record(failures: 0, lastFailure: now)].failures += 1
            records[key]?.lastFailure = now
            if records.count > limits.capacity {
                // Drop the oldest tenth at once, so a flood of new names does not sort on every attempt.
                let oldest = records.sorted { $0.value.lastFailure < $1.value.lastFailure }.prefix(max(1, limits.capacity / 10))
                for (key, _) in oldest { records[key] = nil }
            }
        }
    }

    func succeeded(_ email: String) {
        let key = Self.key(email)
        records.withLock { _ = $0.removeValue(forKey: key) }
    }

    /// Accounts remembered now.
    var count: Int { records.withLock { $0.count } }

    static func key(_ email: String) -> String {
        SHA256.hash(data: Array(email.lowercased().utf8)).hexString
    }
}
