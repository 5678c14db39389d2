/// The JSON text of the arrays SQLite's `json_each` reads a batch or a list from: strings,
/// integers, booleans and null only, written straight into UTF-8. Foundation's
/// `JSONSerialization` casts every value from `Any` and was a third of the hub's CPU during
/// ingest, inside SQLite's one write transaction.
struct JSONArrayText {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func open() { bytes.append(UInt8(ascii: "[")) }
    mutating func close() { bytes.append(UInt8(ascii: "]")) }
    mutating func comma() { bytes.append(UInt8(ascii: ",")) }
    mutating func null() { bytes.append(contentsOf: "null".utf8) }

    mutating func append(_ value: Int64) { bytes.append(contentsOf: String(value).utf8) }
    mutating func append(_ value: Bool) { bytes.append(contentsOf: (value ? "true" : "false").utf8) }

    /// A string, quoted: `"` and `\` escaped, control characters as `\u00XX`; everything else
    /// (any other Unicode) as its own UTF-8, which JSON allows.
    mutating func append(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0..<0x20:
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `[v, v, …]` of one list.
    static func list<T>(_ values: [T], _ write: (inout JSONArrayText, T) -> Void) -> String {
        var json = JSONArrayText(capacity: values.count * 16 + 2)
        json.open()
        for (index, value) in values.enumerated() {
            if index > 0 { json.comma() }
            write(&json, value)
        }
        json.close()
        return json.text
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
