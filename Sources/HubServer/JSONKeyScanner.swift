import Foundation

/// The object keys of a JSON document, per structural path (array elements collapse into `*`),
/// found in one pass over the bytes, without building the document. Keys whose value is `null`
/// are left out (an explicit null is as good as absent).
///
/// For ``StrictJSON``'s unknown-field check: comparing these with the keys a type is known to
/// accept costs a fraction of the decode/encode round trip it replaces on the hot path.
enum JSONKeyScanner {
    /// `nil` when the bytes hold something this scanner leaves to the full check (a key with an
    /// escape sequence, or text that is not JSON).
    static func keys(in data: Data) -> [String: Set<String>]? {
        data.withUnsafeBytes { raw -> [String: Set<String>]? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var result: [String: Set<String>] = [:]
            // One frame per open container: its path, and for objects whether a key is expected next.
            var stack: [(path: String, isObject: Bool)] = []
            var expectKey = false
            var pendingKey: String?
            var i = 0
            let n = bytes.count
            func skipString(_ start: Int) -> (end: Int, escaped: Bool)? {
                var j = start + 1, escaped = false
                while j < n {
                    switch bytes[j] {
                    case UInt8(ascii: "\\"): escaped = true; j += 2
                    case UInt8(ascii: "\""): return (j, escaped)
                    default: j += 1
                    }
                }
                return nil
            }
            func valueStarts(isNull: Bool) {
                guard let key = pendingKey, let frame = stack.last else { return }
                if !isNull { result[frame.path, default: []].insert(key) }
                pendingKey = nil
            }
            func childPath() -> String {
                guard let frame = stack.last else { return "" }
                if frame.isObject { return frame.path.isEmpty ? (pendingKey ?? "") : frame.path + "." + (pendingKey ?? "") }
                return frame.path.isEmpty ? "*" : frame.path + ".*"
            }
            while i < n {
                let byte = bytes[i]
                switch byte {
                case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"), UInt8(ascii: ","), UInt8(ascii: ":"):
                    if byte == UInt8(ascii: ","), stack.last?.isObject == true { expectKey = true }
                    i += 1
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let path = childPath()
                    valueStarts(isNull: false)
                    stack.append((path, byte == UInt8(ascii: "{")))
                    expectKey = byte == UInt8(ascii: "{")
                    i += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard !stack.isEmpty else { return nil }
                    stack.removeLast()
                    expectKey = false
                    i += 1
                case UInt8(ascii: "\""):
                    guard let (end, escaped) = skipString(i) else { return nil }
                    if expectKey {
                        if escaped { return nil }
                        pendingKey = String(decoding: UnsafeBufferPointer(rebasing: bytes[(i + 1)..<end]), as: UTF8.self)
                        expectKey = false
                    } else {
                        valueStarts(isNull: false)
                    }
                    i = end + 1
                default:
                    // A number, true, false or null.
                    let isNull = byte == UInt8(ascii: "n")
                    valueStarts(isNull: isNull)
                    while i < n, !isDelimiter(bytes[i]) { i += 1 }
                }
            }
            return stack.isEmpty ? result : nil
        }
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): true
        default: false
        }
    }
}
