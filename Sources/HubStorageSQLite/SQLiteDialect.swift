import Foundation
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
        var rows = Array(repeating: [Any](), count: batch.count)
        for column in batch.columns {
            let values: [Any] = switch column.values {
            case .text(let values): values
            case .optionalText(let values): values.map { $0 ?? NSNull() }
            case .integer(let values): values
            case .optionalInteger(let values): values.map { $0 ?? NSNull() }
            case .boolean(let values): values
            }
            for (row, value) in values.enumerated() { rows[row].append(value) }
        }
        return text(rows)
    }

    /// A list bound as a JSON array (``expression(_:isIn:)``).
    static func json(_ list: SQLValue) -> String? {
        switch list {
        case .texts(let values): text(values)
        case .integers(let values): text(values)
        case .booleans(let values): text(values)
        default: nil
        }
    }

    private static func text(_ array: [Any]) -> String {
        // Only strings, integers, booleans and NSNull: always serializable.
        String(decoding: (try? JSONSerialization.data(withJSONObject: array, options: [.fragmentsAllowed])) ?? Data("[]".utf8), as: UTF8.self)
    }
}
