import Foundation

/// A value of a check-in list's rules (JsonLogic, as pretix writes them): read from JSON, or
/// made while evaluating (an instant, ``time(_:)``).
public indirect enum RuleValue: Sendable, Hashable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([RuleValue])
    case object([String: RuleValue])
    /// An instant (`now`, `buildTime`): never in JSON.
    case time(Timestamp)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([RuleValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: RuleValue].self))
        }
    }

    /// Rules as pretix serves them; `nil` for text that is no JSON (an empty object is no rule).
    public static func parse(_ json: String) -> RuleValue? {
        try? JSONDecoder().decode(RuleValue.self, from: Data(json.utf8))
    }

    /// JsonLogic's truth: `false`, `null`, `0`, `""` and `[]` are false, everything else true.
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .number(let value): value != 0 && !value.isNaN
        case .string(let value): !value.isEmpty
        case .array(let values): !values.isEmpty
        case .object, .time: true
        }
    }

    /// As a number, the way JsonLogic compares (`"2"` is 2, `true` is 1, `null` is 0); `nil` when it is none.
    var number: Double? {
        switch self {
        case .number(let value): value
        case .bool(let value): value ? 1 : 0
        case .null: 0
        case .string(let text): Double(text.trimmingCharacters(in: .whitespaces))
        case .time(let time): Double(time.milliseconds)
        case .array, .object: nil
        }
    }

    /// As text, for `var` paths and `cat`.
    var text: String {
        switch self {
        case .null: ""
        case .bool(let value): value ? "true" : "false"
        case .number(let value): value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .string(let text): text
        case .array(let values): values.map(\.text).joined(separator: ",")
        case .object: "[object Object]"
        case .time(let time): time.iso8601
        }
    }

    /// JsonLogic's `==`: equal after converting a number, a numeric text or a boolean to a number.
    func looselyEquals(_ other: RuleValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.string(let a), .string(let b)): return a == b
        case (.time(let a), .time(let b)): return a == b
        case (.array, _), (_, .array), (.object, _), (_, .object): return self == other
        default:
            guard let a = number, let b = other.number else { return false }
            return a == b
        }
    }
}
