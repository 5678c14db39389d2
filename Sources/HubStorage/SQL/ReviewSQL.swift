import Foundation

/// The review page's queries, written once for both dialects with `$1` parameters (like ``StatsSQL``).
enum ReviewSQL {
    /// A check-in's key as ``CheckInCore/IdempotencyKey/description`` spells it: what marks name.
    private static func key(_ table: String) -> String {
        "\(table).device_id || '/' || \(table).guest_id || '/' || \(table).scanned_at"
    }

    private static let noFirst = "CAST(NULL AS TEXT) AS first_device, CAST(NULL AS BIGINT) AS first_at, CAST(NULL AS TEXT) AS first_by, CAST(NULL AS TEXT) AS first_station, 0 AS first_undone"
    private static let noRegistration = "CAST(NULL AS TEXT) AS reg_id, CAST(NULL AS TEXT) AS reg_name, CAST(NULL AS TEXT) AS reg_code, CAST(NULL AS TEXT) AS reg_email"
    private static let guest = "g.name AS guest_name, g.code AS guest_code, g.email AS guest_email"

    /// Every item of ``ReviewItem/Kind``, each with its mark; `$1` the event, `$2` the limit.
    static let items = """
        SELECT i.*, m.resolution AS mark_resolution, m.actor_id AS mark_actor_id, m.actor_name AS mark_actor_name, m.at AS mark_at
        FROM (
            SELECT 'conflict' AS kind, \(key("c")) AS subject, c.guest_id, \(guest), c.device_id, c.scanned_at AS at_ms, c.station,
                c.operator_name, c.decision, c.reason, c.prev_device AS first_device, c.prev_at AS first_at, c.prev_by AS first_by,
                c.prev_station AS first_station, CASE WHEN f.undone_at IS NOT NULL THEN 1 ELSE 0 END AS first_undone, \(noRegistration)
            FROM check_ins c
            LEFT JOIN guests g ON g.event_id = c.event_id AND g.id = c.guest_id
            LEFT JOIN check_ins f ON f.event_id = c.event_id AND f.device_id = c.prev_device AND f.guest_id = c.guest_id
                AND f.scanned_at = c.prev_at AND f.status = 'accepted'
            WHERE c.event_id = $1 AND c.decision = 'already_checked_in'
            UNION ALL
            SELECT 'walk_in', w.guest_id, w.guest_id, \(guest), w.device_id, w.created_at, w.station, w.operator_name,
                CASE WHEN g.merged_into IS NOT NULL OR g.possible_duplicate_of IS NOT NULL THEN 'possible_duplicate' ELSE 'access_type' END,
                w.review, \(noFirst), r.id, r.name, r.code, r.email
            FROM walk_ins w
            JOIN guests g ON g.event_id = w.event_id AND g.id = w.guest_id
            LEFT JOIN guests r ON r.event_id = g.event_id AND r.id = COALESCE(g.merged_into, g.possible_duplicate_of)
            WHERE w.event_id = $1 AND (g.merged_into IS NOT NULL OR (NOT g.deleted AND (g.possible_duplicate_of IS NOT NULL OR w.review IS NOT NULL)))
            UNION ALL
            SELECT 'refusal', \(key("c")), c.guest_id, \(guest), c.device_id, c.scanned_at, c.station, c.operator_name, c.decision, c.reason,
                \(noFirst), \(noRegistration)
            FROM check_ins c LEFT JOIN guests g ON g.event_id = c.event_id AND g.id = c.guest_id
            WHERE c.event_id = $1 AND c.status = 'rejected' AND c.decision <> 'already_checked_in'
            UNION ALL
            SELECT 'refusal', \(key("a")), a.guest_id, \(guest), a.device_id, a.scanned_at, a.station, a.operator_name, a.decision, a.reason,
                \(noFirst), \(noRegistration)
            FROM check_in_attempts a LEFT JOIN guests g ON g.event_id = a.event_id AND g.id = a.guest_id
            WHERE a.event_id = $1
                AND a.id = (SELECT max(b.id) FROM check_in_attempts b WHERE b.event_id = a.event_id AND b.device_id = a.device_id
                            AND b.guest_id = a.guest_id AND b.scanned_at = a.scanned_at)
                AND NOT EXISTS (SELECT 1 FROM check_ins d WHERE d.event_id = a.event_id AND d.device_id = a.device_id
                                AND d.guest_id = a.guest_id AND d.scanned_at = a.scanned_at)
            UNION ALL
            SELECT 'flagged_exit', \(key("c")), c.guest_id, \(guest), c.device_id, c.scanned_at, c.station, c.operator_name, c.flag, c.reason,
                \(noFirst), \(noRegistration)
            FROM check_ins c LEFT JOIN guests g ON g.event_id = c.event_id AND g.id = c.guest_id
            WHERE c.event_id = $1 AND c.flag IS NOT NULL AND c.undone_at IS NULL
        ) AS i
        LEFT JOIN review_marks m ON m.event_id = $1 AND m.kind = i.kind AND m.subject = i.subject
        ORDER BY CASE i.kind WHEN 'conflict' THEN 0 WHEN 'walk_in' THEN 1 WHEN 'refusal' THEN 2 ELSE 3 END, i.at_ms, i.subject
        LIMIT $2
        """

    /// Whether an item exists: `$1` the event, `$2` device (or the walk-in's guest id), `$3` guest, `$4` scan time.
    static func exists(_ kind: ReviewItem.Kind) -> String {
        let checkIn = "SELECT 1 FROM check_ins WHERE event_id = $1 AND device_id = $2 AND guest_id = $3 AND scanned_at = $4"
        return switch kind {
        case .conflict: checkIn + " AND decision = 'already_checked_in'"
        case .flaggedExit: checkIn + " AND flag IS NOT NULL"
        case .refusal: checkIn + " AND status = 'rejected' AND decision <> 'already_checked_in' UNION ALL " + checkIn.replacingOccurrences(of: "check_ins", with: "check_in_attempts")
        case .walkIn: "SELECT 1 FROM walk_ins WHERE event_id = $1 AND guest_id = $2"
        }
    }

    /// Inserts a mark unless one exists: `$1` event, `$2` kind, `$3` subject, `$4` resolution, `$5` actor id, `$6` actor name, `$7` at.
    static let insertMark = """
        INSERT INTO review_marks (event_id, kind, subject, resolution, actor_id, actor_name, at) VALUES ($1, $2, $3, $4, $5, $6, $7)
        ON CONFLICT (event_id, kind, subject) DO NOTHING
        """

    /// A merge replaces whatever mark the walk-in had.
    static let upsertMark = """
        INSERT INTO review_marks (event_id, kind, subject, resolution, actor_id, actor_name, at) VALUES ($1, $2, $3, $4, $5, $6, $7)
        ON CONFLICT (event_id, kind, subject) DO UPDATE SET resolution = excluded.resolution, actor_id = excluded.actor_id,
            actor_name = excluded.actor_name, at = excluded.at
        """

    static let mark = "SELECT resolution, actor_id, actor_name, at FROM review_marks WHERE event_id = $1 AND kind = $2 AND subject = $3"
}
