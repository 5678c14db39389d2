import GRDB
import Synchronization

/// SQLite's `change_seq`: the counter row `hub_counters.change_seq`, drawn with the same
/// `nextval('change_seq')` PostgreSQL's sequence answers, so every statement is written once.
///
/// A write transaction that may change an event loads the counter when it starts (``begin(_:)``);
/// `nextval` draws from that copy; the transaction stores what it drew before it commits
/// (``end(_:)``). SQLite has one writer at a time, so the copy is the counter.
final class ChangeSequence: Sendable {
    private let value = Mutex<Int64?>(nil)

    /// The `nextval(name)` function of every connection.
    var function: DatabaseFunction {
        DatabaseFunction("nextval", argumentCount: 1, pure: false) { [self] _ in
            try self.value.withLock { current -> Int64 in
                guard let drawn = current.map({ $0 + 1 }) else { throw DatabaseError(message: "nextval outside a transaction that changes an event") }
                current = drawn
                return drawn
            }
        }
    }

    /// Loads the counter at the start of a write transaction; returns its value.
    func begin(_ db: Database) throws -> Int64 {
        let stored = try Int64.fetchOne(db, sql: "SELECT value FROM hub_counters WHERE name = 'change_seq'") ?? 0
        value.withLock { $0 = stored }
        return stored
    }

    /// Stores what the transaction drew; returns the counter's value, `nil` when it drew nothing.
    func end(_ db: Database, began: Int64) throws -> Int64? {
        let drawn = value.withLock { current in
            defer { current = nil }
            return current
        }
        guard let drawn, drawn != began else { return nil }
        try db.execute(sql: "UPDATE hub_counters SET value = ? WHERE name = 'change_seq'", arguments: [drawn])
        return drawn
    }

    /// Forgets the copy of a transaction that failed.
    func abandon() {
        value.withLock { $0 = nil }
    }
}
