import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A test's own calls to a pretix server's REST API, as pretix's clients make them: JSON in and
/// out, authorized as the organizer's team (`Token …`), as a device (`Device …`), or not at all
/// (`device/initialize`). Every answer comes back with its status; only a server that cannot be
/// reached throws (a `URLError`, `.cannotConnectToHost` once it is stopped).
public struct PretixAPI: Sendable {
    public enum Credential: Sendable {
        case none
        case team(String)
        case device(String)
    }

    /// `http://127.0.0.1:PORT`
    public var base: String
    public var credential: Credential

    public init(base: String, credential: Credential) {
        self.base = base
        self.credential = credential
    }

    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        // One gunicorn worker answers one request at a time; a 20,000-order page can take seconds.
        configuration.timeoutIntervalForRequest = 120
        return URLSession(configuration: configuration)
    }()

    /// `path` starts at the server's root (`/api/v1/…`) or is a full URL (a page's `next`).
    public func send(_ method: String, _ path: String, body: Data? = nil) async throws -> PretixAnswer {
        guard let url = URL(string: path.hasPrefix("http") ? path : base + path) else { throw PretixFailure("not a URL: \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        switch credential {
        case .none: break
        case .team(let token): request.setValue("Token \(token)", forHTTPHeaderField: "Authorization")
        case .device(let token): request.setValue("Device \(token)", forHTTPHeaderField: "Authorization")
        }
        let (data, response) = try await Self.session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw PretixFailure("\(method) \(path): not an HTTP answer") }
        return PretixAnswer(status: http.statusCode, body: data)
    }

    /// Sends `body` as JSON with snake_case keys (pretix's).
    public func send<Body: Encodable>(_ method: String, _ path: String, json body: Body) async throws -> PretixAnswer {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return try await send(method, path, body: try encoder.encode(body))
    }

    public func get(_ path: String) async throws -> PretixAnswer { try await send("GET", path) }

    public func post<Body: Encodable>(_ path: String, _ body: Body) async throws -> PretixAnswer {
        try await send("POST", path, json: body)
    }
}

/// One answer of pretix's API.
public struct PretixAnswer: Sendable {
    public var status: Int
    public var body: Data

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body decoded (snake_case keys, ISO 8601 times) when the status is `expected` (any
    /// status when `nil`); otherwise a failure that shows the status and the body.
    public func decode<Value: Decodable>(_ type: Value.Type, expecting expected: Int? = 200) throws -> Value {
        if let expected, status != expected { throw PretixFailure("pretix answered \(status) (expected \(expected)): \(text)") }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = PretixAnswer.date(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an ISO 8601 time: \(text)"))
            }
            return date
        }
        return try decoder.decode(Value.self, from: body)
    }

    /// pretix writes times with or without fractions of a second.
    static func date(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions.insert(.withFractionalSeconds)
        return fractional.date(from: text) ?? plain.date(from: text)
    }
}

/// One page of a pretix list (`count`, `next`, `results`; at most 50 per page).
public struct PretixPage<Element: Decodable & Sendable>: Decodable, Sendable {
    public var count: Int
    public var next: String?
    public var results: [Element]
}

/// Something a test asked of pretix did not go as the rig expects; says what, with pretix's answer.
public struct PretixFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
