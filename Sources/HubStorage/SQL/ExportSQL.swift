/// The exports' queries, written once for both dialects with `$1` parameters (``StatsSQL``).
enum ExportSQL {
    /// Admissions folded per guest first (as ``StatsSQL/perAccessType``), then joined to guests by key.
    static let attendance = """
        WITH moves AS (
            SELECT guest_id, direction, scanned_at, station, operator_name,
                row_number() OVER (PARTITION BY guest_id, direction ORDER BY scanned_at, id) AS first_n,
                row_number() OVER (PARTITION BY guest_id, direction ORDER BY scanned_at DESC, id DESC) AS last_n
            FROM check_ins WHERE event_id = $1 AND status = 'accepted' AND undone_at IS NULL
        ), visits AS (
            SELECT guest_id, count(CASE WHEN direction = 'entry' THEN 1 END) AS entries,
                max(CASE WHEN direction = 'entry' AND first_n = 1 THEN scanned_at END) AS first_at,
                max(CASE WHEN direction = 'entry' AND first_n = 1 THEN station END) AS first_station,
                max(CASE WHEN direction = 'entry' AND first_n = 1 THEN operator_name END) AS first_operator,
                max(CASE WHEN direction = 'exit' AND last_n = 1 THEN scanned_at END) AS last_exit
            FROM moves GROUP BY guest_id
        )
        SELECT g.code, g.name, g.email, g.company, COALESCE(t.name, g.access_type_id) AS access_type, g.walk_in, g.revoked,
            v.first_at, v.first_station, v.first_operator, COALESCE(v.entries, 0) AS entries, v.last_exit
        FROM guests g
        LEFT JOIN access_types t ON t.event_id = g.event_id AND t.id = g.access_type_id
        LEFT JOIN visits v ON v.guest_id = g.id
        WHERE g.event_id = $1 AND NOT g.deleted
        ORDER BY g.name, g.code
        """

    /// The four sources of the hub's log as one result, oldest first. `scanned_at` is NULL for actions.
    static let hubLog = """
        SELECT * FROM (
            SELECT c.received_at AS at, 'check-in' AS kind, c.status AS outcome,
                CASE WHEN c.reason IS NULL THEN c.decision ELSE c.decision || ': ' || c.reason END AS detail,
                c.guest_id, c.station, c.device_id, c.operator_name, COALESCE(s.email, '') AS account, c.scanned_at, c.id AS n, 0 AS source
            FROM check_ins c LEFT JOIN staff s ON s.id = c.uploaded_by WHERE c.event_id = $1
            UNION ALL
            SELECT a.received_at, 'unknown code', 'rejected', CASE WHEN a.reason IS NULL THEN a.decision ELSE a.decision || ': ' || a.reason END,
                a.guest_id, a.station, a.device_id, a.operator_name, COALESCE(s.email, ''), a.scanned_at, a.id, 1
            FROM check_in_attempts a LEFT JOIN staff s ON s.id = a.uploaded_by WHERE a.event_id = $1
            UNION ALL
            SELECT u.received_at, 'undo', u.status, COALESCE(u.reason, ''),
                u.guest_id, u.station, u.device_id, u.operator_name, COALESCE(s.email, ''), u.scanned_at, u.id, 2
            FROM undo_log u LEFT JOIN staff s ON s.id = u.uploaded_by WHERE u.event_id = $1
            UNION ALL
            SELECT o.at, 'organizer action', o.kind, o.detail, o.subject, '', '', o.actor_name, COALESCE(s.email, ''), NULL, o.id, 3
            FROM organizer_actions o LEFT JOIN staff s ON s.id = o.actor_id WHERE o.event_id = $1
        ) AS entries ORDER BY at, source, n
        """
}
