import HubAPI

/// Merges changes from several tables into one page, in change-sequence order.
public enum RosterPaging {
    /// One change read from a table: its sequence number and what it adds to the page.
    public typealias Change = (seq: Int64, apply: (inout RosterPage) -> Void)

    /// Each table was read with `seq > cursor ORDER BY seq LIMIT limit + 1`, so the first `limit`
    /// of the merge are the first `limit` changes overall.
    public static func page(_ changes: [Change], after cursor: Int64, limit: Int) -> RosterPage {
        let sorted = changes.sorted { $0.seq < $1.seq }
        var page = RosterPage(cursor: cursor, hasMore: sorted.count > limit)
        for change in sorted.prefix(limit) {
            change.apply(&page)
            page.cursor = change.seq
        }
        return page
    }
}
