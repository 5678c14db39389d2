import Foundation
import HubServer

/// A `multipart/form-data` body (RFC 7578), as a browser posts a form with a file: its parts by
/// field name, each with the file name when it is a file. Only what the dashboard's upload form
/// sends is understood; anything else is ``Failure/malformed``. No I/O: the body is collected
/// (with a bound) by the caller.
struct MultipartForm: Sendable {
    struct Part: Sendable, Hashable {
        var name: String
        var filename: String?
        var bytes: ArraySlice<UInt8>

        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    enum Failure: Error, Sendable, Hashable {
        /// No `boundary` in the content type, or a body that does not follow it.
        case malformed
    }

    var parts: [Part]

    /// The first part named `name`.
    subscript(_ name: String) -> Part? { parts.first { $0.name == name } }

    /// The boundary of a `multipart/form-data; boundary=…` content type, or `nil` for any other.
    static func boundary(contentType: String?) -> String? {
        guard let contentType else { return nil }
        let items = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let type = items.first, type.lowercased() == "multipart/form-data" else { return nil }
        for item in items.dropFirst() {
            let pair = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            var value = pair[1]
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            // RFC 2046: 1 to 70 characters.
            return (1...70).contains(value.utf8.count) ? value : nil
        }
        return nil
    }

    /// Whether the content type is `multipart/form-data` (with or without a usable boundary).
    static func isMultipart(contentType: String?) -> Bool {
        contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "multipart/form-data"
    }

    init(parts: [Part]) { self.parts = parts }

    /// Parses `body` delimited by `boundary`.
    init(_ body: [UInt8], boundary: String) throws(Failure) {
        let delimiter = Array(("--" + boundary).utf8)
        let crlf: [UInt8] = [13, 10]
        // The body starts with the first delimiter (a preamble is allowed and skipped).
        guard var position = Self.find(delimiter, in: body, from: 0) else { throw .malformed }
        position += delimiter.count
        var parts: [Part] = []
        while true {
            // After a delimiter: "--" ends the body, CRLF starts a part.
            if body.count >= position + 2, body[position] == 45, body[position + 1] == 45 { break }
            guard body.count >= position + 2, body[position] == 13, body[position + 1] == 10 else { throw .malformed }
            position += 2
            guard let headersEnd = Self.find(crlf + crlf, in: body, from: position), headersEnd - position <= 8 * 1024 else { throw .malformed }
            let headers = String(decoding: body[position..<headersEnd], as: UTF8.self)
            let contentStart = headersEnd + 4
            guard let next = Self.find(crlf + delimiter, in: body, from: contentStart) else { throw .malformed }
            guard let (name, filename) = Self.disposition(headers) else { throw .malformed }
            parts.append(Part(name: name, filename: filename, bytes: body[contentStart..<next]))
            position = next + 2 + delimiter.count
            guard parts.count <= 64 else { throw .malformed }
        }
        self.parts = parts
    }

    /// The `name` and `filename` of a part's `Content-Disposition: form-data` header.
    static func disposition(_ headers: String) -> (name: String, filename: String?)? {
        for line in headers.split(separator: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition" else { continue }
            let value = String(pair[1])
            guard value.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("form-data"),
                  let name = parameter("name", in: value) else { return nil }
            return (name, parameter("filename", in: value))
        }
        return nil
    }

    /// A `key="value"` parameter of a header (browsers quote both and escape `"` as `%22`).
    private static func parameter(_ key: String, in header: String) -> String? {
        var rest = Substring(header)
        while let range = rest.range(of: key + "=\"") {
            let before = rest[..<range.lowerBound].last
            rest = rest[range.upperBound...]
            // `name=` must not match the end of `filename=`.
            guard before == nil || before == " " || before == ";" else { continue }
            guard let end = rest.firstIndex(of: "\"") else { return nil }
            return String(rest[..<end]).replacingOccurrences(of: "%22", with: "\"")
        }
        return nil
    }

    /// The first index of `needle` in `haystack` at or after `start` (`memchr` for the first
    /// byte, `memcmp` for the rest: a roster of megabytes is searched at memory speed, also in
    /// debug builds).
    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, start >= 0, haystack.count - start >= needle.count else { return nil }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                guard let base = hay.baseAddress, let first = pin.baseAddress else { return nil }
                var index = start
                let last = hay.count - pin.count
                while index <= last {
                    guard let hit = memchr(base + index, Int32(pin[0]), last - index + 1) else { return nil }
                    let found = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + found, first, pin.count) == 0 { return found }
                    index = found + 1
                }
                return nil
            }
        }
    }
}
