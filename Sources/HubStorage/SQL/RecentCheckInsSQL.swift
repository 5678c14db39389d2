/// The newest accepted movements of an event, not undone, newest first (by the roster's change
/// sequence, so a late upload of an old scan shows up when it arrives). Walks `check_ins_seq`.
enum RecentCheckInsSQL {
    static let latest = """
        SELECT COALESCE(g.name, '') AS guest_name, c.station, c.operator_name, c.source, c.direction, c.scanned_at
        FROM check_ins c LEFT JOIN guests g ON g.event_id = c.event_id AND g.id = c.guest_id
        WHERE c.event_id = $1 AND c.status = 'accepted' AND c.undone_at IS NULL
        ORDER BY c.seq DESC, c.id DESC
        LIMIT $2
        """
}
