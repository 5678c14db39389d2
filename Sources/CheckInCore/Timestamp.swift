import Foundation

/// A point in time with millisecond precision, stored as milliseconds since the Unix epoch.
///
/// Check-ins are identified by their scan time in milliseconds (see ``IdempotencyKey``), so the
/// domain keeps that exact integer instead of a `Date`, whose `Double` would round-trip through
/// SQLite and JSON with sub-millisecond noise.
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// The date's millisecond, saturating at the ends of `Int64` (a `Date` far enough out, or
    /// not a number, would otherwise trap in the conversion).
    public init(_ date: Date) {
        self.init(saturating: (date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// A whole number of milliseconds as a `Double`, clamped to `Int64` (NaN: 0).
    private init(saturating value: Double) {
        if value.isNaN {
            self.milliseconds = 0
        } else if value >= 9_223_372_036_854_775_807 {  // 2^63 as a Double: above every Int64
            self.milliseconds = .max
        } else if value <= -9_223_372_036_854_775_808 {
            self.milliseconds = .min
        } else {
            self.milliseconds = Int64(value)
        }
    }

    /// The current wall-clock time.
    public static func now() -> Timestamp { Timestamp(Date()) }

    public var date: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// This instant moved by `delta` milliseconds, saturating at the ends of `Int64`.
    ///
    /// Times come from clients and from stored rows: a sum that does not fit must not trap the
    /// process (one crafted scan time once crashed the hub on every restart), and a saturated
    /// end is as implausible as the time that produced it (see ``PlausibleTime``).
    public func adding(milliseconds delta: Int64) -> Timestamp {
        let (sum, overflow) = milliseconds.addingReportingOverflow(delta)
        guard overflow else { return Timestamp(milliseconds: sum) }
        return Timestamp(milliseconds: delta > 0 ? .max : .min)
    }

    /// How far apart two instants are, in milliseconds, whichever comes first.
    ///
    /// Exact over the whole `Int64` range: the distance of two `Int64` values always fits an
    /// unsigned 64-bit integer, and the wrapping difference of the larger minus the smaller is
    /// that distance.
    public func distance(to other: Timestamp) -> UInt64 {
        let (high, low) = milliseconds >= other.milliseconds ? (milliseconds, other.milliseconds) : (other.milliseconds, milliseconds)
        return UInt64(bitPattern: high &- low)
    }

    /// Milliseconds from `earlier` to this instant (negative when `earlier` is later),
    /// saturating at the ends of `Int64`.
    public func milliseconds(since earlier: Timestamp) -> Int64 {
        let (difference, overflow) = milliseconds.subtractingReportingOverflow(earlier.milliseconds)
        guard overflow else { return difference }
        return milliseconds > earlier.milliseconds ? .max : .min
    }

    /// ISO 8601 in UTC with milliseconds, e.g. `2026-11-22T19:41:07.123Z`.
    ///
    /// Defined for every `Int64` (years run to about ±292 million): the floor division below
    /// cannot overflow, and the fields are formatted without `String(format:)`.
    public var iso8601: String {
        var (seconds, millis) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        if millis < 0 {
            seconds -= 1  // quotient ≥ Int64.min / 1000, so this cannot overflow
            millis += 1000
        }
        var time = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return "\(milliseconds) ms since 1970-01-01T00:00:00Z" }
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value.magnitude)
            let padded = digits.count < width ? String(repeating: "0", count: width - digits.count) + digits : digits
            return value < 0 ? "-" + padded : padded
        }
        return pad(Int(parts.tm_year) + 1900, 4) + "-" + pad(Int(parts.tm_mon) + 1, 2) + "-" + pad(Int(parts.tm_mday), 2)
            + "T" + pad(Int(parts.tm_hour), 2) + ":" + pad(Int(parts.tm_min), 2) + ":" + pad(Int(parts.tm_sec), 2)
            + "." + pad(Int(millis), 3) + "Z"
    }

    /// Parses what ``iso8601`` writes, and the same without fractional seconds or with an offset.
    public init?(iso8601 text: String) {
        let formatter = ISO8601DateFormatter()
        // To the nearest millisecond, not down: the parsed `Date` of `….001Z` can be a hair below
        // it as a binary fraction (found by the round-trip property test).
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { self.init(saturating: (date.timeIntervalSince1970 * 1000).rounded()); return }
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { self.init(saturating: (date.timeIntervalSince1970 * 1000).rounded()); return }
        return nil
    }

    public var description: String { iso8601 }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.milliseconds = try container.decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(milliseconds)
    }
}
