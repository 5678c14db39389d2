import Foundation
import HubStorage
import Logging
import PostgresNIO

/// A ``SQLConnection`` over one PostgreSQL connection of the pool (a transaction's, or a read's).
struct PostgresSQLConnection: SQLConnection {
    let connection: PostgresConnection
    let logger: Logger

    var dialect: any SQLDialect { PostgresDialect() }

    func rows<T>(_ query: SQL, _ decode: (any SQLRow) throws -> T) async throws -> [T] {
        var decoded: [T] = []
        for try await row in try await connection.query(Self.query(query), logger: logger) {
            decoded.append(try decode(PostgresSQLRow(row: row.makeRandomAccess())))
        }
        return decoded
    }

    func execute(_ query: SQL) async throws {
        try await connection.query(Self.query(query), logger: logger)
    }

    func lockEvent(_ event: String) async throws {
        try await execute("SELECT \(HubLocks.event(event))")
    }

    func lockGuests(_ event: String, _ guests: [String]) async throws {
        try await execute(HubLocks.guests(event, guests))
    }

    func lockSchema() async throws {
        try await execute("SELECT \(HubLocks.schema)")
    }

    /// Sent with the transaction, so never seen before the commit; identical notices of one
    /// transaction are delivered once.
    func announce(_ event: String) async throws {
        try await execute("SELECT \(dialect.changeNotice(event))")
    }

    /// The statements of a migration file, one at a time (the extended protocol takes one per
    /// query). Files keep `;` only at statement ends and `--` comments on their own lines.
    func executeScript(_ sql: String) async throws {
        for statement in Self.statements(sql) {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
    }

    static func statements(_ sql: String) -> [String] {
        let lines = sql.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("--") }
        return lines.joined(separator: "\n").split(separator: ";").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    /// The statement and its binds as PostgresNIO sends them.
    static func query(_ query: SQL) -> PostgresQuery {
        var binds = PostgresBindings(capacity: query.binds.count)
        for value in query.binds {
            switch value {
            case .null: binds.appendNull()
            case .integer(let integer): binds.append(integer)
            case .text(let text): binds.append(text)
            case .boolean(let bool): binds.append(bool)
            case .texts(let texts): binds.append(texts)
            case .integers(let integers): binds.append(integers)
            case .booleans(let booleans): binds.append(booleans)
            }
        }
        return PostgresQuery(unsafeSQL: query.text, binds: binds)
    }
}

/// A PostgreSQL row read by column name.
struct PostgresSQLRow: SQLRow {
    let row: PostgresRandomAccessRow

    func value(_ column: String) throws -> SQLValue {
        guard row.contains(column) else { throw SQLRowError.missingColumn(column) }
        let cell = row[column]
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
        case .bool: return .boolean(try cell.decode(Bool.self))
        case .numeric: return .integer(NSDecimalNumber(decimal: try cell.decode(Decimal.self)).int64Value)
        default: return .text(try cell.decode(String.self))
        }
    }
}
