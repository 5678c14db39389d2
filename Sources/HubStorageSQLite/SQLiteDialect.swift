import HubStorage

/// SQLite's side of ``SQLDialect``: lists and batches are JSON arrays read with `json_each`;
/// locks are no-ops (one writer at a time, `BEGIN IMMEDIATE`).
struct SQLiteDialect: SQLDialect {
    var words: SQLWords { SQLWords(name: "sqlite", caseInsensitiveLike: "LIKE", forUpdate: "") }

    func expression(_ expression: String, isIn values: SQLValue) -> SQL {
        "\(raw: expression) IN (SELECT value FROM json_each(\(values)))"
    }

    func table(_ batch: SQLBatch, as alias: String) -> SQL {
        var columns = batch.columns.enumerated().map { index, column in
            let value = "value ->> \(index)"
            if case .optionalText = column.values { return "NULLIF(\(value), '') AS \(column.name)" }
            return "\(value) AS \(column.name)"
        }
        columns.append("key + 1 AS n")
        return "(SELECT \(raw: columns.joined(separator: ", ")) FROM json_each(\(Self.json(batch)))) AS \(raw: alias)"
    }

    func joinedLines(_ column: String, from query: String) -> String {
        "(SELECT group_concat(\(column), char(10)) FROM (\(query)))"
    }

    func eventLock(_ event: String) -> SQL { "1" }
    func changeNotice(_ event: String) -> SQL { "1" }

    /// The batch as one JSON array of rows (`[[…], […]]`), bound as text.
    static func json(_ batch: SQLBatch) -> String {
        var json = JSONArrayText(capacity: batch.count * batch.columns.count * 12 + 2)
        json.open()
        for row in 0..<batch.count {
            if row > 0 { json.comma() }
            json.open()
            for (index, column) in batch.columns.enumerated() {
                if index > 0 { json.comma() }
                switch column.values {
                case .text(let values): json.append(values[row])
                case .optionalText(let values): if let value = values[row] { json.append(value) } else { json.null() }
                case .integer(let values): json.append(values[row])
                case .optionalInteger(let values): if let value = values[row] { json.append(value) } else { json.null() }
                case .boolean(let values): json.append(values[row])
                }
            }
            json.close()
        }
        json.close()
        return json.text
    }

    /// A list bound as a JSON array (``expression(_:isIn:)``).
    static func json(_ list: SQLValue) -> String? {
        switch list {
        case .texts(let values): JSONArrayText.list(values) { $0.append($1) }
        case .integers(let values): JSONArrayText.list(values) { $0.append($1) }
        case .booleans(let values): JSONArrayText.list(values) { $0.append($1) }
        default: nil
        }
    }
}
