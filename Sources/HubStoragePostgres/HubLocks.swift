import HubStorage

/// The hub's PostgreSQL advisory locks, one place: a transaction lock per event, one for the
/// schema, and one per guest (``GuestLockKey``: one-key locks, a lock space of their own, so guest
/// keys never collide with the two-key ones).
enum HubLocks {
    /// The class of the hub's two-key locks: `(class, hashtext(event id))` and `(class, 0)`.
    static let hubClass = 4242

    /// Held by every write to the event until commit: change sequence numbers commit in order.
    static func event(_ event: String) -> SQL { "pg_advisory_xact_lock(\(raw: String(hubClass)), hashtext(\(event)))" }

    /// Held by the hub process that migrates; the others wait here and find nothing to do.
    static let schema: SQL = "pg_advisory_xact_lock(\(raw: String(hubClass)), 0)"

    /// The guests' locks, in ascending key order so two batches sharing guests cannot deadlock
    /// (two guests hashing alike only wait for each other).
    static func guests(_ event: String, _ guests: [String]) -> SQL {
        let keys = Set(guests.map { GuestLockKey.key(event: event, guest: $0) }).sorted()
        return "SELECT count(pg_advisory_xact_lock(k)) FROM unnest(\(SQLValue.integers(keys))::bigint[]) AS k"
    }
}
