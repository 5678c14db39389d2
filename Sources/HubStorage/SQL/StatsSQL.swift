/// Statistics queries, written once for both dialects with `$1` parameters.
enum StatsSQL {
    /// Per access type: guests expected, admitted (an accepted entry not undone) and inside (the
    /// last accepted movement is an entry; an entry and an exit of the same millisecond count as
    /// entry then exit, as ``CheckInCore/CheckInRules`` orders them). Check-ins are folded per guest first and joined to
    /// guests by key: joining every guest to the check-in sets instead took 7.7 s for 100k guests
    /// on SQLite (no index on a CTE), and a station asks for these totals at each full download.
    static let perAccessType = """
        WITH last AS (
            SELECT guest_id, direction,
                row_number() OVER (PARTITION BY guest_id ORDER BY scanned_at DESC, CASE direction WHEN 'exit' THEN 0 ELSE 1 END, id DESC) AS n
            FROM check_ins WHERE event_id = $1 AND status = 'accepted' AND undone_at IS NULL
        ), visits AS (
            SELECT guest_id, max(CASE WHEN direction = 'entry' THEN 1 ELSE 0 END) AS admitted,
                max(CASE WHEN n = 1 AND direction = 'entry' THEN 1 ELSE 0 END) AS inside
            FROM last GROUP BY guest_id
        ), expected AS (
            SELECT access_type_id, count(*) AS expected FROM guests
            WHERE event_id = $1 AND NOT revoked AND NOT deleted GROUP BY access_type_id
        ), present AS (
            SELECT g.access_type_id, sum(v.admitted) AS checked_in, sum(v.inside) AS inside
            FROM visits v JOIN guests g ON g.event_id = $1 AND g.id = v.guest_id AND NOT g.revoked AND NOT g.deleted
            GROUP BY g.access_type_id
        )
        SELECT t.id AS id, COALESCE(e.expected, 0) AS expected, COALESCE(p.checked_in, 0) AS checked_in,
            COALESCE(p.inside, 0) AS inside
        FROM access_types t
        LEFT JOIN expected e ON e.access_type_id = t.id
        LEFT JOIN present p ON p.access_type_id = t.id
        WHERE t.event_id = $1
        ORDER BY t.id
        """

    static let perStation = """
        SELECT station, count(CASE WHEN direction = 'entry' THEN 1 END) AS checked_in, 0 AS inside
        FROM check_ins WHERE event_id = $1 AND status = 'accepted' AND undone_at IS NULL
        GROUP BY station ORDER BY station
        """

    static let counts = """
        SELECT count(CASE WHEN status = 'duplicate' THEN 1 END) AS duplicates,
            count(CASE WHEN decision = 'already_checked_in' THEN 1 END) AS conflicts,
            count(CASE WHEN flag IS NOT NULL AND undone_at IS NULL THEN 1 END) AS flagged_exits
        FROM check_ins WHERE event_id = $1
        """

    static let conflicts = """
        SELECT guest_id, prev_by, prev_station, prev_device, prev_at, operator_name, station, device_id, scanned_at
        FROM check_ins WHERE event_id = $1 AND decision = 'already_checked_in' ORDER BY seq
        """

    /// Flagged movements not undone (an undone exit no longer needs a look), in recording order.
    static let flaggedExits = """
        SELECT guest_id, flag, operator_name, station, device_id, scanned_at
        FROM check_ins WHERE event_id = $1 AND flag IS NOT NULL AND undone_at IS NULL ORDER BY seq
        """

    static let walkInReviews = """
        SELECT guest_id, requested_access_type_id, access_type_id, review, device_id, station, operator_name, uploaded_by, created_at
        FROM walk_ins WHERE event_id = $1 AND review IS NOT NULL ORDER BY received_at, guest_id
        """

    /// The newest change sequence number of an event's roster (0: none), from the `(event_id, seq)`
    /// indexes: what ``ChangeFeed`` polls. Only accepted check-ins count, as in the roster pages:
    /// a refused or duplicate upload changes nothing a station follows, and must not wake one.
    static let latestChange = """
        SELECT max(seq) AS latest FROM (
            SELECT max(seq) AS seq FROM access_types WHERE event_id = $1
            UNION ALL SELECT max(seq) FROM guests WHERE event_id = $1
            UNION ALL SELECT max(seq) FROM check_ins WHERE event_id = $1 AND status = 'accepted') AS latest
        """
}
