/// The self-service PIN's limit on guessing: after five wrong entries the PIN is locked for
/// five minutes, each further lockout twice as long (a keyboard injector at the door must not
/// try 10,000 PINs in minutes). Times are the console's monotonic seconds.
public struct PINGuard: Sendable, Equatable {
    public static let attemptsBeforeLockout = 5
    public static let firstLockoutSeconds = 300.0

    public private(set) var failures = 0
    public private(set) var lockouts = 0
    public private(set) var lockedUntil: Double?

    public init() {}

    public enum Verdict: Sendable, Equatable {
        case accepted
        case wrong(attemptsLeft: Int)
        /// Too many wrong entries: locked for this many seconds.
        case lockedOut(seconds: Double)
        /// Still locked: no entry is checked.
        case locked(secondsLeft: Double)
    }

    public func isLocked(now: Double) -> Bool { lockedUntil.map { now < $0 } ?? false }

    mutating func check(_ entered: String, against pin: String, now: Double) -> Verdict {
        if let lockedUntil, now < lockedUntil { return .locked(secondsLeft: lockedUntil - now) }
        if entered == pin {
            failures = 0
            return .accepted
        }
        failures += 1
        guard failures >= Self.attemptsBeforeLockout else { return .wrong(attemptsLeft: Self.attemptsBeforeLockout - failures) }
        let seconds = Self.firstLockoutSeconds * Double(1 << min(lockouts, 10))
        lockouts += 1
        failures = 0
        lockedUntil = now + seconds
        return .lockedOut(seconds: seconds)
    }
}
