/// One `struct input_event` as an evdev device delivers it on 64-bit Linux: a `timeval` (16
/// bytes), then type (2), code (2) and value (4), in the machine's byte order.
public struct InputEvent: Sendable, Equatable {
    public static let size = 24

    /// When the kernel saw it (seconds and microseconds since the epoch, as `timeval`).
    public var time: Duration
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(time: Duration, type: UInt16, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }

    /// Reads one record (exactly ``size`` bytes).
    public init(record: UnsafeRawBufferPointer) {
        precondition(record.count == Self.size)
        let seconds = record.loadUnaligned(fromByteOffset: 0, as: Int64.self)
        let microseconds = record.loadUnaligned(fromByteOffset: 8, as: Int64.self)
        time = .seconds(seconds) + .microseconds(microseconds)
        type = record.loadUnaligned(fromByteOffset: 16, as: UInt16.self)
        code = record.loadUnaligned(fromByteOffset: 18, as: UInt16.self)
        value = record.loadUnaligned(fromByteOffset: 20, as: Int32.self)
    }

    /// The record's bytes, as the kernel would write them (tests record keystrokes with it).
    public var record: [UInt8] {
        let microseconds = time.components.attoseconds / 1_000_000_000_000
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.size)
        withUnsafeBytes(of: time.components.seconds) { bytes += $0 }
        withUnsafeBytes(of: microseconds) { bytes += $0 }
        withUnsafeBytes(of: type) { bytes += $0 }
        withUnsafeBytes(of: code) { bytes += $0 }
        withUnsafeBytes(of: value) { bytes += $0 }
        return bytes
    }
}

/// Whole records out of reads that may end mid-record (a pipe of recorded events can; an
/// event device never does).
struct InputEventRecords {
    private var partial: [UInt8] = []

    mutating func append(_ bytes: UnsafeRawBufferPointer) -> [InputEvent] {
        var events: [InputEvent] = []
        var rest = bytes[...]
        if !partial.isEmpty {
            let needed = min(InputEvent.size - partial.count, rest.count)
            partial += rest.prefix(needed)
            rest = rest.dropFirst(needed)
            guard partial.count == InputEvent.size else { return [] }
            events.append(partial.withUnsafeBytes { InputEvent(record: $0) })
            partial.removeAll(keepingCapacity: true)
        }
        while rest.count >= InputEvent.size {
            events.append(InputEvent(record: UnsafeRawBufferPointer(rebasing: rest.prefix(InputEvent.size))))
            rest = rest.dropFirst(InputEvent.size)
        }
        partial += rest
        return events
    }
}
