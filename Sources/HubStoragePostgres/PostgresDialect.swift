import HubStorage

/// PostgreSQL's side of ``SQLDialect``: lists and batches are arrays (`unnest`), locks are
/// advisory transaction locks (``HubLocks``), changes are announced with `NOTIFY`.
struct PostgresDialect: SQLDialect {
    var words: SQLWords { SQLWords(name: "postgres", caseInsensitiveLike: "ILIKE", forUpdate: " FOR UPDATE") }

    func expression(_ expression: String, isIn values: SQLValue) -> SQL {
        "\(raw: expression) = ANY(\(values)\(raw: Self.cast(values)))"
    }

    /// Arrays cannot carry NULL here: `''` and `Int64.min` stand for it, and NULLIF turns them back.
    func table(_ batch: SQLBatch, as alias: String) -> SQL {
        var arrays: SQL = ""
        var columns: SQL = ""
        for (index, column) in batch.columns.enumerated() {
            let array: SQLValue, type: String
            switch column.values {
            case .text(let values): (array, type) = (.texts(values), "text[]")
            case .optionalText(let values): (array, type) = (.texts(values.map { $0 ?? "" }), "text[]")
            case .integer(let values): (array, type) = (.integers(values), "bigint[]")
            case .optionalInteger(let values): (array, type) = (.integers(values.map { $0 ?? .min }), "bigint[]")
            case .boolean(let values): (array, type) = (.booleans(values), "boolean[]")
            }
            let separator = index == 0 ? "" : ", "
            arrays = "\(arrays)\(raw: separator)\(array)::\(raw: type)"
            let name = column.name
            switch column.values {
            case .optionalText: columns = "\(columns)\(raw: separator)NULLIF(\(raw: name), '') AS \(raw: name)"
            case .optionalInteger: columns = "\(columns)\(raw: separator)NULLIF(\(raw: name), \(Int64.min)) AS \(raw: name)"
            default: columns = "\(columns)\(raw: separator)\(raw: name)"
            }
        }
        let names = batch.columns.map(\.name).joined(separator: ", ")
        return "(SELECT \(columns), n FROM unnest(\(arrays)) WITH ORDINALITY AS u(\(raw: names), n)) AS \(raw: alias)"
    }

    func joinedLines(_ column: String, from query: String) -> String {
        "array_to_string(ARRAY(\(query)), chr(10))"
    }

    func eventLock(_ event: String) -> SQL { HubLocks.event(event) }

    func changeNotice(_ event: String) -> SQL { "pg_notify(\(PostgresDatabase.changeChannel), \(event))" }

    private static func cast(_ list: SQLValue) -> String {
        switch list {
        case .integers: "::bigint[]"
        case .booleans: "::boolean[]"
        default: "::text[]"
        }
    }
}
