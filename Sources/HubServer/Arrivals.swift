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

enum ArrivalsSQL {
    /// $1 event, $2 from, $3 bucket length, $4 until. Reads only the partial index
    /// `check_ins_entries` (0010_guest_lookup.sql), whose condition this repeats word for word.
    static let perBucket = """
        SELECT (scanned_at - $2) / $3 AS bucket, count(*) AS entries FROM check_ins
        WHERE event_id = $1 AND status = 'accepted' AND direction = 'entry' AND undone_at IS NULL
            AND scanned_at >= $2 AND scanned_at < $4
        GROUP BY 1 ORDER BY 1
        """
}
