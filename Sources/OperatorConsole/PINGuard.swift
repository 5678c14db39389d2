import CheckInCore

/// The self-service PIN's limit on guessing: after five wrong entries the PIN is locked for
/// five minutes, each further lockout twice as long (a keyboard injector at the door must not
/// try a million PINs in days). Times are the console's monotonic seconds; ``Saved`` carries the
/// count and the lockout across a restart of the station on the wall clock.
public struct PINGuard: Sendable, Equatable {
    public static let attemptsBeforeLockout = 5
    public static let firstLockoutSeconds = 300.0
    /// At five tries per lockout, doubling from five minutes, 10⁶ PINs take far longer than
    /// any event; 10⁴ (four digits) fall within a few days of lockouts, or minutes without them.
    public static let minimumDigits = 6
    /// What the PIN prompt takes.
    public static let maximumDigits = 32

    /// Why `pin` cannot be the self-service PIN, in the operator's words, or nil when it can:
    /// 6 to 32 ASCII digits (what a kiosk's keypad types).
    public static func problem(withPIN pin: String) -> String? {
        let digits = pin.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
        if digits && pin.count >= minimumDigits && pin.count <= maximumDigits { return nil }
        let what = !digits ? "it is not all digits 0-9" : pin.count < minimumDigits ? "it has \(pin.count)" : "it has \(pin.count), more than the prompt takes"
        return "self_service_pin must be at least \(minimumDigits) digits, 0-9 (\(what)): a shorter PIN is guessed at the door. "
            + "Set a PIN of \(minimumDigits) or more digits (at most \(maximumDigits)), or remove the line to run without self-service"
    }

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

extension PINGuard {
    /// The guard as kept between runs of the station: the wrong entries and lockouts so far, and
    /// when the current lockout ends by the wall clock with how long it was.
    public struct Saved: Sendable, Equatable, Codable {
        public var failures: Int
        public var lockouts: Int
        public var lockedUntil: Timestamp?
        public var lockSeconds: Double?

        public init(failures: Int, lockouts: Int, lockedUntil: Timestamp? = nil, lockSeconds: Double? = nil) {
            self.failures = failures
            self.lockouts = lockouts
            self.lockedUntil = lockedUntil
            self.lockSeconds = lockSeconds
        }
    }

    /// This guard to keep, at console time `now`, which is `wallClock` on the wall clock.
    public func saved(now: Double, wallClock: Timestamp) -> Saved {
        guard let lockedUntil, now < lockedUntil else { return Saved(failures: failures, lockouts: lockouts) }
        let left = Int64(min((lockedUntil - now) * 1000, Double(Int64.max / 2)).rounded(.up))
        return Saved(failures: failures, lockouts: lockouts, lockedUntil: wallClock.adding(milliseconds: left),
                     lockSeconds: Self.firstLockoutSeconds * Double(1 << min(max(lockouts - 1, 0), 10)))
    }

    /// A guard restored at console time `now` (`wallClock` on the wall clock). A lockout goes on
    /// for what was left of it, never longer than its own length: a clock set back (or a box
    /// whose clock starts in 1970) cannot lock the staff out for longer than the lockout was.
    public init(restoring saved: Saved, now: Double, wallClock: Timestamp) {
        failures = min(max(saved.failures, 0), Self.attemptsBeforeLockout - 1)
        lockouts = min(max(saved.lockouts, 0), 64)
        if let until = saved.lockedUntil, let length = saved.lockSeconds, length > 0 {
            let left = min(Double(until.milliseconds(since: wallClock)) / 1000, length)
            if left > 0 { lockedUntil = now + left }
        }
    }
}
