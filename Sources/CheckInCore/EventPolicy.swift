/// Per-event rules that the station and the hub apply alike.
public struct EventPolicy: Sendable, Hashable, Codable {
    /// Two admissions of one guest whose scan times lie within this many milliseconds are one
    /// check-in: the later is a `duplicate` of the first, not a second entry.
    public var toleranceWindowMilliseconds: Int64
    /// Ticket codes compared without regard to case (most ticket systems issue such codes).
    public var caseInsensitiveCodes: Bool

    public static let defaultToleranceWindowMilliseconds: Int64 = 30_000

    public init(toleranceWindowMilliseconds: Int64 = EventPolicy.defaultToleranceWindowMilliseconds, caseInsensitiveCodes: Bool = true) {
        self.toleranceWindowMilliseconds = toleranceWindowMilliseconds
        self.caseInsensitiveCodes = caseInsensitiveCodes
    }

    public static let standard = EventPolicy()

    /// Whether two scan times are one check-in: at most ``toleranceWindowMilliseconds`` apart
    /// (both ends inclusive). Exact and trap-free for any two times; a negative window (only a
    /// corrupt setting can hold one) counts as 0.
    public func isWithinWindow(_ a: Timestamp, _ b: Timestamp) -> Bool {
        a.distance(to: b) <= UInt64(max(0, toleranceWindowMilliseconds))
    }
}
