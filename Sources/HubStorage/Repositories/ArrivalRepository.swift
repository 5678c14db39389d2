import CheckInCore

/// Entries of an event counted per interval: what the live page's arrivals chart draws.
public struct ArrivalCount: Sendable, Hashable {
    /// The interval's index from the start of the counted span (0 is the first interval).
    public var bucket: Int
    public var entries: Int

    public init(bucket: Int, entries: Int) {
        self.bucket = bucket
        self.entries = entries
    }
}

/// The arrivals chart's data, counted in the database: one bounded query, never every row.
public protocol ArrivalRepository: Sendable {
    /// Accepted entries not undone (re-entries too) scanned in `[from, until)`, counted per
    /// `bucketMilliseconds`; intervals without entries are absent. Ordered by bucket.
    func arrivals(event: String, from: Timestamp, until: Timestamp, bucketMilliseconds: Int64) async throws -> [ArrivalCount]
}
