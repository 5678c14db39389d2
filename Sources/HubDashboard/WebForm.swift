import Foundation
import HTTPTypes
import HubServer
import Hummingbird
import NIOCore

/// An `application/x-www-form-urlencoded` body, as the dashboard's forms post it.
struct WebForm: Sendable {
    /// The field every dashboard form carries (``CSRFToken``).
    static let csrfField = "csrf"
    /// Forms are small: an e-mail, a password and a token.
    static let maximumBytes = 16 * 1024

    var fields: [String: String]

    subscript(_ name: String) -> String? { fields[name] }

    /// Parses `text`; the first of repeated fields wins.
    init(_ text: String) {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]) else { continue }
            let value = parts.count > 1 ? Self.decode(parts[1]) ?? "" : ""
            if fields[name] == nil { fields[name] = value }
        }
        self.fields = fields
    }

    private static func decode(_ part: Substring) -> String? {
        String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// The request's form body (the request keeps the collected body for the handler).
    /// - Throws: 413 beyond ``maximumBytes``.
    static func read(_ request: inout Request) async throws -> WebForm {
        do {
            let buffer = try await request.collectBody(upTo: maximumBytes)
            return WebForm(String(buffer: buffer))
        } catch {
            throw HTTPError(.contentTooLarge)
        }
    }
}
