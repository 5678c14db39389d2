import Foundation
import CheckInCore
import HubAPI

/// A check-in row as stored, with the answer it got.
struct StoredCheckIn: Sendable {
    var upload: CheckInUpload
    var result: CheckInResult
    var undone: Bool

    /// Counts for the rules: an accepted entry not undone.
    var isAdmission: Bool { result.status == .accepted && upload.direction == .entry && !undone }
}

/// Merges changes from several tables into one page, in change-sequence order.
enum RosterPaging {
    /// Each table was read with `seq > cursor ORDER BY seq LIMIT limit + 1`, so the first `limit`
    /// of the merge are the first `limit` changes overall.
    static func page(_ changes: [(seq: Int64, apply: (inout RosterPage) -> Void)], after cursor: Int64, limit: Int) -> RosterPage {
        let sorted = changes.sorted { $0.seq < $1.seq }
        var page = RosterPage(cursor: cursor, hasMore: sorted.count > limit)
        for change in sorted.prefix(limit) {
            change.apply(&page)
            page.cursor = change.seq
        }
        return page
    }
}

/// Who may undo a check-in.
enum UndoPolicy {
    static func allows(caller: UndoCaller, key: IdempotencyKey, recordedAt: Timestamp, now: Timestamp, event: EventSummary) -> Bool {
        if caller.role >= .support { return true }
        guard let device = caller.deviceID, device == key.deviceID else { return false }
        return now.milliseconds - recordedAt.milliseconds <= event.stationUndoMilliseconds
    }
}

/// Statistics queries, written once for both dialects with `$1` parameters.
enum StatsSQL {
    static let perAccessType = """
        WITH admitted AS (
            SELECT DISTINCT guest_id FROM check_ins
            WHERE event_id = $1 AND status = 'accepted' AND direction = 'entry' AND undone_at IS NULL
        ), last AS (
            SELECT guest_id, direction, row_number() OVER (PARTITION BY guest_id ORDER BY scanned_at DESC, id DESC) AS n
            FROM check_ins WHERE event_id = $1 AND status = 'accepted' AND undone_at IS NULL
        )
        SELECT t.id AS id, count(g.id) AS expected, count(a.guest_id) AS checked_in,
            count(CASE WHEN l.direction = 'entry' THEN 1 END) AS inside
        FROM access_types t
        LEFT JOIN guests g ON g.event_id = t.event_id AND g.access_type_id = t.id AND NOT g.revoked AND NOT g.deleted
        LEFT JOIN admitted a ON a.guest_id = g.id
        LEFT JOIN last l ON l.guest_id = g.id AND l.n = 1
        WHERE t.event_id = $1
        GROUP BY t.id ORDER BY t.id
        """

    static let perStation = """
        SELECT station, count(CASE WHEN direction = 'entry' THEN 1 END) AS checked_in, 0 AS inside
        FROM check_ins WHERE event_id = $1 AND status = 'accepted' AND undone_at IS NULL
        GROUP BY station ORDER BY station
        """

    static let counts = """
        SELECT count(CASE WHEN status = 'duplicate' THEN 1 END) AS duplicates,
            count(CASE WHEN decision = 'already_checked_in' THEN 1 END) AS conflicts
        FROM check_ins WHERE event_id = $1
        """

    static let conflicts = """
        SELECT guest_id, prev_by, prev_station, prev_device, prev_at, operator_name, station, device_id, scanned_at
        FROM check_ins WHERE event_id = $1 AND decision = 'already_checked_in' ORDER BY seq
        """

    /// SQLite spells numbered parameters `?1`.
    static func sqlite(_ sql: String) -> String { sql.replacingOccurrences(of: "$", with: "?") }
}
