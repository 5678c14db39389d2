/// Many rows bound to one statement as one list per column, read back as a table by
/// ``SQLDialect/table(_:as:)``: PostgreSQL's `unnest` of arrays, SQLite's `json_each` of a JSON
/// array. Batch inserts and "these keys" lookups are one statement, not one per row.
public struct SQLBatch: Sendable {
    /// A column's values, in row order. An optional text column stores `""` as NULL in both
    /// dialects (PostgreSQL arrays cannot carry NULL here: `""` stands for it).
    public enum Values: Sendable {
        case text([String])
        case optionalText([String?])
        case integer([Int64])
        case optionalInteger([Int64?])
        case boolean([Bool])

        var count: Int {
            switch self {
            case .text(let values): values.count
            case .optionalText(let values): values.count
            case .integer(let values): values.count
            case .optionalInteger(let values): values.count
            case .boolean(let values): values.count
            }
        }
    }

    public struct Column: Sendable {
        public var name: String
        public var values: Values

        public init(_ name: String, _ values: Values) {
            self.name = name
            self.values = values
        }
    }

    public var columns: [Column]

    /// - Precondition: every column has as many values as the first.
    public init(_ columns: [Column]) {
        precondition(Set(columns.map(\.values.count)).count <= 1, "the columns of a batch hold one value per row")
        self.columns = columns
    }

    public var count: Int { columns.first?.values.count ?? 0 }
}

extension SQLBatch {
    /// Builds a batch from `rows`, one column per entry of `columns`.
    public init<Row>(_ rows: [Row], _ columns: [(String, ([Row]) -> Values)]) {
        self.init(columns.map { Column($0.0, $0.1(rows)) })
    }
}
