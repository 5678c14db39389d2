import AsyncHTTPClient
import CheckInCore
import Foundation
import HTTPTransport
import NIOCore
import NIOHTTP1

/// One answer of pretix, read within the client's bounds.
struct PretixResponse: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: Data

    var isSuccess: Bool { (200..<300).contains(status) }

    /// pretix's explanation of a refusal: `{"detail": …}`, a list of messages, or field errors
    /// (`{"token": ["…"]}`), sanitized and cut short; `nil` when the body is none of these.
    var detail: String? {
        guard let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else { return nil }
        func words(_ value: Any) -> [String] {
            switch value {
            case let text as String: [text]
            case let list as [Any]: list.flatMap(words)
            case let fields as [String: Any]:
                fields.keys.sorted().flatMap { key in words(fields[key]!).map { key == "detail" || key == "non_field_errors" ? $0 : "\(key): \($0)" } }
            default: []
            }
        }
        let text = words(object).joined(separator: "; ")
        return text.isEmpty ? nil : String(Sanitized.text(text).prefix(300))
    }

    /// `Retry-After` in seconds, when pretix gave one.
    var retryAfterSeconds: Int? {
        headers.first(name: "Retry-After").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { max(0, $0) }
    }
}

extension PretixClient {
    /// Sends one request to `api/v1/` + `path` (already percent-encoded) and reads the answer.
    /// Transport failures are thrown; every status comes back for the caller to judge.
    /// - Parameters:
    ///   - authorized: sends the device's token (every call but `device/initialize`).
    ///   - idempotencyKey: pretix stores the first answer to this key and gives it again.
    func exchange(_ method: HTTPMethod, _ path: String, query: [(String, String)] = [], body: Data? = nil,
                  authorized: Bool = true, idempotencyKey: PretixNonce? = nil) async throws(PretixError) -> PretixResponse {
        var address = server.absoluteString + "/api/v1/" + path
        if !query.isEmpty {
            address += "?" + query.map { Self.percentEncoded($0.0) + "=" + Self.percentEncoded($0.1) }.joined(separator: "&")
        }
        var request = HTTPClientRequest(url: address)
        request.method = method
        request.tlsConfiguration = tls
        request.headers.add(name: "Accept", value: "application/json")
        if authorized {
            let device = try requireDevice()
            request.headers.add(name: "Authorization", value: "Device \(device.apiToken)")
        }
        if let idempotencyKey { request.headers.add(name: "X-Idempotency-Key", value: idempotencyKey.value) }
        if let body {
            request.body = .bytes(ByteBuffer(bytes: body))
            request.headers.add(name: "Content-Type", value: "application/json")
        }
        let answer: BoundedDownload.Answer
        do throws(TransportFailure) { answer = try await download.exchange(request, timeout: timeout) } catch {
            throw PretixError(error)
        }
        return PretixResponse(status: answer.status, headers: answer.headers, body: Data(answer.body.readableBytesView))
    }

    /// Sends `value` as the JSON body.
    func exchange<Body: Encodable>(_ method: HTTPMethod, _ path: String, query: [(String, String)] = [], json value: Body,
                                   authorized: Bool = true, idempotencyKey: PretixNonce? = nil) async throws(PretixError) -> PretixResponse {
        let body: Data
        do { body = try JSONEncoder().encode(value) } catch { throw .malformed("cannot encode the request: \(error)") }
        return try await exchange(method, path, query: query, body: body, authorized: authorized, idempotencyKey: idempotencyKey)
    }

    /// The error for an answer that is not the one expected: a revoked device, another refused
    /// token, the security profile, quiet asked for, pretix failing, or a refusal of its own.
    func failure(_ response: PretixResponse, doing what: String) -> PretixError {
        let detail = response.detail
        switch response.status {
        case 401:
            return detail == "Device access has been revoked." ? .deviceRevoked : .unauthorized(detail ?? "HTTP 401")
        case 403 where detail?.contains("security profile") == true:
            return .notAllowedByProfile(profile: device?.securityProfile.identifier ?? "unknown", what: what)
        case 429, 409:
            // 409: an idempotent call with this key is still in flight at pretix; it says when to retry.
            return .tooManyRequests(retryAfterSeconds: response.retryAfterSeconds)
        case 500...:
            return .serverError(status: response.status)
        default:
            return .refused(status: response.status, detail: detail ?? "HTTP \(response.status)")
        }
    }

    /// The answer's JSON as `Value`; anything else is ``PretixError/malformed(_:)`` naming `what`.
    func decode<Value: Decodable>(_ type: Value.Type, from response: PretixResponse, what: String) throws(PretixError) -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: response.body)
        } catch {
            throw .malformed("\(what): \(Self.summary(of: error))")
        }
    }

    /// A decoding failure in a few words: the field's path and what was wrong, never the data.
    static func summary(of error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "not JSON" }
        let path: (DecodingError.Context) -> String = { context in
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        let text: String
        switch decoding {
        case .keyNotFound(let key, let context): text = "\(path(context)).\(key.stringValue) missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): text = "\(path(context)) has the wrong type"
        case .dataCorrupted(let context): text = context.codingPath.isEmpty ? "not JSON" : "\(path(context)) is not valid"
        @unknown default: text = "not the expected JSON"
        }
        return String(Sanitized.text(text).prefix(200))
    }

    /// A query or path part with everything but unreserved characters percent-encoded: `+`, `/`,
    /// `=` of a signed ticket's secret and `+` of a time's offset stay what they are.
    static func percentEncoded(_ text: String) -> String {
        var unreserved = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(0x7F)))
        unreserved.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// `organizers/ORG/` + `rest`, for the initialized device's organizer.
    func organizerPath(_ rest: String) throws(PretixError) -> String {
        "organizers/" + Self.percentEncoded(try requireDevice().organizer) + "/" + rest
    }

    /// `organizers/ORG/events/EV/` + `rest`.
    func eventPath(_ event: String, _ rest: String) throws(PretixError) -> String {
        try organizerPath("events/" + Self.percentEncoded(event) + "/" + rest)
    }
}
