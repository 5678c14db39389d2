import Foundation

/// A check-in list: which products a door admits, and how often.
public struct PretixCheckInList: Sendable, Hashable, Codable {
    public var id: Int
    public var name: String
    public var allProducts: Bool
    public var limitProducts: [Int]
    /// The date of a series the list is for.
    public var subevent: Int?
    public var includePending: Bool
    public var allowMultipleEntries: Bool
    public var allowEntryAfterExit: Bool
    /// The list's check-in rules (JsonLogic); `{}` when it has none.
    public var rules: PretixRules
    /// When everyone is checked out automatically.
    public var exitAllAt: PretixTime?
    /// Scanning a ticket also checks in its add-on on this list.
    public var addonMatch: Bool

    enum CodingKeys: String, CodingKey {
        case id, name, allProducts = "all_products", limitProducts = "limit_products", subevent
        case includePending = "include_pending", allowMultipleEntries = "allow_multiple_entries"
        case allowEntryAfterExit = "allow_entry_after_exit", rules, exitAllAt = "exit_all_at", addonMatch = "addon_match"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        allProducts = try container.decode(Bool.self, forKey: .allProducts)
        limitProducts = try container.decodeIfPresent([Int].self, forKey: .limitProducts) ?? []
        subevent = try container.decodeIfPresent(Int.self, forKey: .subevent)
        includePending = try container.decode(Bool.self, forKey: .includePending)
        allowMultipleEntries = try container.decode(Bool.self, forKey: .allowMultipleEntries)
        allowEntryAfterExit = try container.decodeIfPresent(Bool.self, forKey: .allowEntryAfterExit) ?? true
        rules = try container.decodeIfPresent(PretixRules.self, forKey: .rules) ?? PretixRules(json: "{}")
        exitAllAt = try container.decodeIfPresent(PretixTime.self, forKey: .exitAllAt)
        addonMatch = try container.decodeIfPresent(Bool.self, forKey: .addonMatch) ?? false
    }
}

/// A check-in list's rules (pretix's JsonLogic), kept as compact JSON with sorted keys for the
/// evaluator that decides them offline later; `{}` (or `null`) means no rules.
public struct PretixRules: Sendable, Hashable, Codable {
    public var json: String

    /// The list has rules to evaluate.
    public var isEmpty: Bool { json == "{}" || json == "null" }

    public init(json: String) { self.json = json }

    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(JSONLogicDocument.self)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        json = String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Written back as the JSON it is (what ``init(from:)`` reads).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(try JSONDecoder().decode(JSONLogicDocument.self, from: Data(json.utf8)))
    }
}

/// Any JSON, read only to be kept as text (pretix's rules).
private indirect enum JSONLogicDocument: Codable {
    case null, bool(Bool), number(Double), string(String), array([JSONLogicDocument]), object([String: JSONLogicDocument])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let bool = try? container.decode(Bool.self) { self = .bool(bool) }
        else if let number = try? container.decode(Double.self) { self = .number(number) }
        else if let string = try? container.decode(String.self) { self = .string(string) }
        else if let array = try? container.decode([JSONLogicDocument].self) { self = .array(array) }
        else { self = .object(try container.decode([String: JSONLogicDocument].self)) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .number(let number):
            if number.rounded() == number, abs(number) < 1e15 { try container.encode(Int64(number)) } else { try container.encode(number) }
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }
}
