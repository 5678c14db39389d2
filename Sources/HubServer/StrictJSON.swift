import Foundation
import HTTPTypes
import HubAPI

/// Decoding of request bodies that refuses what the contract does not know: malformed JSON is a
/// 400, a wrong type or a missing field a 422 naming it, and so is an unknown field.
enum StrictJSON {
    static func decode<T: Codable>(_ type: T.Type, from data: Data) throws -> T {
        let value: T
        do {
            value = try HubJSON.decoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw problem(error)
        }
        // Unknown fields. Fast path: every key of the input was seen before in an input of this
        // type that passed the full check below.
        let scanned = JSONKeyScanner.keys(in: data)
        if let scanned, KnownKeys.shared.covers(scanned, for: T.self) { return value }
        // Full check: every key of the input must survive a decode/encode round trip.
        guard let input = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
              let output = try? JSONSerialization.jsonObject(with: HubJSON.encoder().encode(value), options: [.fragmentsAllowed])
        else { return value }
        if let unknown = unknownKey(input, output, path: []) {
            throw HubProblem.invalid(unknown, "Unknown field \(unknown.split(separator: ".").last.map(String.init) ?? unknown); check the API version.")
        }
        if let scanned { KnownKeys.shared.learn(scanned, for: T.self) }
        return value
    }

    private static func unknownKey(_ input: Any, _ output: Any, path: [String]) -> String? {
        if let input = input as? [String: Any] {
            let output = output as? [String: Any] ?? [:]
            for (key, value) in input.sorted(by: { $0.key < $1.key }) {
                if value is NSNull { continue }
                guard let counterpart = output[key] else { return (path + [key]).joined(separator: ".") }
                if let found = unknownKey(value, counterpart, path: path + [key]) { return found }
            }
        } else if let input = input as? [Any], let output = output as? [Any] {
            for (index, value) in input.enumerated() where index < output.count {
                if let found = unknownKey(value, output[index], path: path + [String(index)]) { return found }
            }
        }
        return nil
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }

    static func problem(_ error: DecodingError) -> HubProblem {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return HubProblem(.badRequest, "Malformed JSON", detail: "The body is not valid JSON.")
        case .dataCorrupted(let context):
            return .invalid(path(context.codingPath), "Invalid value.")
        case .keyNotFound(let key, let context):
            return .invalid(path(context.codingPath + [key]), "Missing field \(key.stringValue).")
        case .typeMismatch(let type, let context):
            return .invalid(path(context.codingPath), "Expected \(type).")
        case .valueNotFound(let type, let context):
            return .invalid(path(context.codingPath), "Expected \(type), found null.")
        @unknown default:
            return HubProblem(.badRequest, "Malformed JSON")
        }
    }
}
