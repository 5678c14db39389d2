import Foundation

/// Splits a byte stream into trimmed, non-empty lines, holding at most `limit` bytes of an
/// unfinished line: a longer line is dropped whole (up to its newline), so a stream without
/// newlines cannot grow the buffer without end.
struct BoundedLines {
    let limit: Int
    private var buffer = Data()
    private var discarding = false

    init(limit: Int) { self.limit = limit }

    /// Adds bytes; returns the lines they complete.
    mutating func append(_ chunk: Data) -> [String] {
        var lines: [String] = []
        var rest = chunk[...]
        while let newline = rest.firstIndex(of: 10) {
            if !discarding {
                buffer.append(rest[rest.startIndex..<newline])
                if buffer.count <= limit, let line = Self.text(buffer) { lines.append(line) }
            }
            buffer.removeAll(keepingCapacity: true)
            discarding = false
            rest = rest[rest.index(after: newline)...]
        }
        if !discarding {
            buffer.append(rest)
            if buffer.count > limit {
                buffer.removeAll()
                discarding = true
            }
        }
        return lines
    }

    /// The unfinished last line at the end of the stream, if any.
    mutating func finish() -> String? {
        defer { buffer.removeAll() }
        return discarding ? nil : Self.text(buffer)
    }

    private static func text(_ bytes: Data) -> String? {
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return line.isEmpty ? nil : line
    }
}
