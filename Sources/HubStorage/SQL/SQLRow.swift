import CheckInCore

/// A row as both databases hand it over, read by column name: what lets every row decoder be
/// written once (``EventSummary/init(row:)`` and the others in `Store/Rows`).
public protocol SQLRow {
    /// The column's value; throws ``SQLRowError/missingColumn(_:)`` when the result has none by that name.
    func value(_ column: String) throws -> SQLValue
}

/// A row that does not hold what its decoder expects: a query and its decoder disagree (a bug,
/// never bad input), or the database was changed behind the hub's back.
public enum SQLRowError: Error, Sendable, Equatable, CustomStringConvertible {
    case missingColumn(String)
    case unexpected(column: String, value: String, expected: String)

    public var description: String {
        switch self {
        case .missingColumn(let column): "The database answered without the column \(column); the hub's schema may be damaged: contact support."
        case .unexpected(let column, let value, let expected):
            "The database holds \(value) where the hub expects \(expected) (column \(column)); the hub's schema may be damaged: contact support."
        }
    }
}

extension SQLRow {
    public func text(_ column: String) throws -> String {
        switch try value(column) {
        case .text(let text): return text
        case let other: throw SQLRowError.unexpected(column: column, value: "\(other)", expected: "text")
        }
    }

    public func optionalText(_ column: String) throws -> String? {
        if case .null = try value(column) { return nil }
        return try text(column)
    }

    public func integer(_ column: String) throws -> Int64 {
        switch try value(column) {
        case .integer(let value): return value
        case let other: throw SQLRowError.unexpected(column: column, value: "\(other)", expected: "an integer")
        }
    }

    public func optionalInteger(_ column: String) throws -> Int64? {
        if case .null = try value(column) { return nil }
        return try integer(column)
    }

    /// A count or a small number (`Int`).
    public func int(_ column: String) throws -> Int { Int(try integer(column)) }

    /// PostgreSQL's boolean, SQLite's 0 or 1.
    public func bool(_ column: String) throws -> Bool {
        switch try value(column) {
        case .boolean(let value): return value
        case .integer(let value): return value != 0
        case let other: throw SQLRowError.unexpected(column: column, value: "\(other)", expected: "a boolean")
        }
    }

    /// Milliseconds since the epoch.
    public func time(_ column: String) throws -> Timestamp { Timestamp(milliseconds: try integer(column)) }

    public func optionalTime(_ column: String) throws -> Timestamp? { try optionalInteger(column).map(Timestamp.init(milliseconds:)) }
}
