/// A value bound to a statement or read from a row, in the few types the hub stores: integer
/// milliseconds and counts, text, and booleans (SQLite keeps them as 0 and 1).
///
/// Lists are only bound, never read, and only where ``SQLDialect`` places them: a PostgreSQL
/// array, or a JSON array SQLite reads with `json_each`.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case text(String)
    case boolean(Bool)
    case texts([String])
    case integers([Int64])
    case booleans([Bool])
}

/// A Swift value that can be bound to a statement (``SQL`` interpolation).
public protocol SQLBindable: Sendable {
    var sqlValue: SQLValue { get }
}

extension String: SQLBindable {
    public var sqlValue: SQLValue { .text(self) }
}

extension Int64: SQLBindable {
    public var sqlValue: SQLValue { .integer(self) }
}

extension Int: SQLBindable {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Bool: SQLBindable {
    public var sqlValue: SQLValue { .boolean(self) }
}

extension Array: SQLBindable where Element == String {
    public var sqlValue: SQLValue { .texts(self) }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
    public var sqlValue: SQLValue { map(\.sqlValue) ?? .null }
}

extension SQLValue: SQLBindable {
    public var sqlValue: SQLValue { self }
}
