import GRDB

/// Guest data removed from the file for good: freed pages overwritten with zeros
/// (`secure_delete`), and, after a compaction, the file rebuilt and its write-ahead log truncated.
/// Sign-out, the purge after an event and the migrations marked `-- kiosk:compact-after` use it.
enum SecureDeletion {
    /// Runs `body` with `secure_delete` on; `db` must not be inside a transaction (the pragma is
    /// the connection's, and is turned off again after).
    static func run<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        try db.execute(sql: "PRAGMA secure_delete = ON")
        defer { try? db.execute(sql: "PRAGMA secure_delete = OFF") }
        return try body()
    }

    /// Rebuilds the file with freed pages overwritten (VACUUM is itself a transaction: one
    /// interrupted leaves the database as it was), then truncates the write-ahead log. Readers may
    /// still hold the log; what cannot be truncated now is at the next start.
    static func compact(_ db: Database) throws {
        try run(db) { try db.execute(sql: "VACUUM") }
        _ = try? db.checkpoint(.truncate)
    }
}
