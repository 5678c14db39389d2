/// The few protobuf wire types a signed ticket's payload uses, read without a generated
/// message: varints and length-delimited fields; 32- and 64-bit fields are skipped.
struct ProtobufReader {
    enum Value {
        case varint(UInt64)
        case bytes([UInt8])
        case skipped
    }

    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var atEnd: Bool { position >= bytes.count }

    /// The next field's number and value; `nil` for a malformed message.
    mutating func next() -> (field: UInt64, value: Value)? {
        guard let key = varint() else { return nil }
        let field = key >> 3
        switch key & 7 {
        case 0:
            return varint().map { (field, .varint($0)) }
        case 2:
            guard let length = varint(), length <= UInt64(bytes.count - position) else { return nil }
            let start = position
            position += Int(length)
            return (field, .bytes(Array(bytes[start ..< position])))
        case 1, 5:
            let width = key & 7 == 1 ? 8 : 4
            guard bytes.count - position >= width else { return nil }
            position += width
            return (field, .skipped)
        default:
            return nil
        }
    }

    private mutating func varint() -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while position < bytes.count, shift < 64 {
            let byte = bytes[position]
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
        return nil
    }
}
