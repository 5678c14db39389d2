import HubAPI

/// The lookup's queries, once for both dialects with `$n` parameters (``SQL``).
enum GuestLookupSQL {
    /// Accepted entries not undone, and the latest movement's direction, of guest `g`.
    static let presence = """
        (SELECT count(*) FROM check_ins c WHERE c.event_id = g.event_id AND c.guest_id = g.id AND c.status = 'accepted'
            AND c.undone_at IS NULL AND c.direction = 'entry') AS entries,
        (SELECT c.direction FROM check_ins c WHERE c.event_id = g.event_id AND c.guest_id = g.id AND c.status = 'accepted'
            AND c.undone_at IS NULL ORDER BY c.scanned_at DESC, CASE c.direction WHEN 'exit' THEN 0 ELSE 1 END, c.id DESC LIMIT 1) AS last_direction
        """

    static let columns = """
        g.event_id, g.id, g.code, g.name, g.email, g.company, g.access_type_id, g.revoked, g.walk_in,
        g.ticket_valid_from, g.ticket_valid_until, g.attention, g.order_code, g.checked_in_before
        """

    /// $1 event, $2 ticket code, $3 the text lowercased (order code, e-mail), $4 name pattern, $5 limit.
    ///
    /// Codes, order codes and e-mails are looked up by index (0010_guest_lookup.sql); a part of a
    /// name can only be scanned for, with the dialect's case-insensitive `like` (SQLite's `LIKE`,
    /// PostgreSQL's `ILIKE`: no `lower()` per row, which tripled the scan on SQLite), and only its
    /// first `$5` matches by name go on. Only the matches shown get their movements looked up.
    static func search(like: String) -> String {
        let guest = "FROM guests g WHERE g.event_id = $1 AND NOT g.deleted"
        return """
            SELECT \(columns), \(presence)
            FROM (SELECT * FROM (
                    SELECT \(columns) \(guest) AND g.code = $2
                    UNION SELECT \(columns) \(guest) AND g.order_code <> '' AND lower(g.order_code) = $3
                    UNION SELECT \(columns) \(guest) AND lower(g.email) = $3
                    UNION SELECT * FROM (SELECT \(columns) \(guest) AND g.name \(like) $4 ESCAPE '\\' ORDER BY g.name, g.id LIMIT $5) n
                  ) u ORDER BY u.name, u.id LIMIT $5) g
            ORDER BY g.name, g.id
            """
    }

    /// $1 event, $2 guest id.
    static let one = """
        SELECT \(columns), \(presence) FROM guests g WHERE g.event_id = $1 AND g.id = $2 AND NOT g.deleted
        """

    /// $1 event, $2 guest id, $3 limit: the actions a guest page lists, newest first.
    static let actions = """
        SELECT * FROM organizer_actions WHERE event_id = $1 AND subject = $2
            AND kind IN ('\(OrganizerAction.Kind.manualCheckIn.rawValue)', '\(OrganizerAction.Kind.guestRevoked.rawValue)', '\(OrganizerAction.Kind.guestRestored.rawValue)')
        ORDER BY id DESC LIMIT $3
        """

    /// $1 event, $2 guest id, $3 limit: recorded answers and attempts without a final one.
    static let history = """
        SELECT device_id, station, operator_name, source, direction, status, decision, reason, scanned_at, received_at, undone, id FROM (
            SELECT c.device_id, c.station, c.operator_name, c.source, c.direction, c.status, c.decision, c.reason, c.scanned_at,
                c.received_at, CASE WHEN c.undone_at IS NULL THEN 0 ELSE 1 END AS undone, c.id
            FROM check_ins c WHERE c.event_id = $1 AND c.guest_id = $2
            UNION ALL
            SELECT a.device_id, a.station, a.operator_name, a.source, a.direction, 'rejected', a.decision, a.reason, a.scanned_at,
                a.received_at, 0, a.id
            FROM check_in_attempts a WHERE a.event_id = $1 AND a.guest_id = $2
        ) h
        ORDER BY scanned_at DESC, received_at DESC, id DESC
        LIMIT $3
        """
}
