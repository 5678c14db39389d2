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
