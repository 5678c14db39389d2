import GRDB
import HubStorage

/// A GRDB row read by column name through the statement's own name index: GRDB matches names
/// case-insensitively at every access, which cost 11 % of the hub's CPU serving a large roster.
struct GRDBRow: SQLRow {
    let row: Row
    let columns: [String: Int]

    func value(_ column: String) throws -> SQLValue {
        guard let index = columns[column] else { throw SQLRowError.missingColumn(column) }
        switch (row[index] as DatabaseValue).storage {
        case .null: return .null
        case .int64(let value): return .integer(value)
        case .double(let value): return .integer(Int64(value))
        case .string(let value): return .text(value)
        case .blob: throw SQLRowError.unexpected(column: column, value: "binary data", expected: "text or a number")
        }
    }

    /// The statement's column names, the first of each name winning (as `SELECT s.*, st.email` reads).
    static func index(_ statement: Statement) -> [String: Int] {
        Dictionary(statement.columnNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
