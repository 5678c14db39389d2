import Crypto
import Synchronization

/// Client addresses (``ClientAddress/key(_:)``) from which an account signed in or refreshed its
/// session lately: a station at the venue, whose refresh history makes it known, is not held
/// back by others guessing the account's password (``SignInLockout``). Per process, like the
/// throttles; at most ``capacity`` pairs, the least recently seen dropped first.
final class RecognisedClients: Sendable {
    private let seen = Mutex([String: ContinuousClock.Instant]())
    /// How long a sign-in or refresh keeps its address known.
    let remembered: Duration
    let capacity: Int

    init(remembered: Duration = .seconds(30 * 86_400), capacity: Int = 10_000) {
        self.remembered = remembered
        self.capacity = capacity
    }

    func remember(staffID: String, client: String, now: ContinuousClock.Instant = .now) {
        let key = Self.key(staffID, client)
        seen.withLock { seen in
            seen[key] = now
            if seen.count > capacity {
                for (key, _) in seen.sorted(by: { $0.value < $1.value }).prefix(max(1, capacity / 10)) { seen[key] = nil }
            }
        }
    }

    func contains(staffID: String, client: String, now: ContinuousClock.Instant = .now) -> Bool {
        let key = Self.key(staffID, client)
        return seen.withLock { seen in seen[key].map { now - $0 < remembered } ?? false }
    }

    static func key(_ staffID: String, _ client: String) -> String {
        SHA256.hash(data: Array((staffID + "\u{0}" + client).utf8)).hexString
    }
}
