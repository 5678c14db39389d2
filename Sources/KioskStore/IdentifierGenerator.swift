import Foundation

/// Identifiers for new guests in the UUID version-7 layout (RFC 9562): the creation time in
/// milliseconds, then a counter that starts at a random value and counts up (its method 1).
///
/// Ids of one import are thus in ascending order, and each goes at the end of the guests' id
/// index instead of at a random place in it: random (version-4) ids made a 100k import re-read
/// and spill index pages all along (about a quarter of its insert time). Foundation's `UUID()`
/// opens `/dev/urandom` for every call on Linux; this generator reads the system's random
/// source once.
struct IdentifierGenerator {
    private let milliseconds: UInt64
    /// 74 bits: 12 in the `rand_a` field, 62 in `rand_b`; the top bit stays clear so that a
    /// whole roster can count up without wrapping.
    private var counter: (high: UInt64, low: UInt64)

    init(now: Date = Date()) {
        var system = SystemRandomNumberGenerator()
        milliseconds = UInt64(max(0, now.timeIntervalSince1970 * 1000)) & 0xFFFF_FFFF_FFFF
        counter = (system.next() & 0x7FF, system.next() & 0x3FFF_FFFF_FFFF_FFFF)
    }

    /// `tttttttt-tttt-7xxx-yxxx-xxxxxxxxxxxx`, lower-case.
    mutating func next() -> String {
        let (high, low) = counter
        if low == 0x3FFF_FFFF_FFFF_FFFF {
            counter = ((high + 1) & 0xFFF, 0)
        } else {
            counter.low = low + 1
        }
        func hex(_ value: UInt64, _ digits: Int) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: digits - text.count) + text
        }
        let variant = 0x8000_0000_0000_0000 | low
        return "\(hex(milliseconds >> 16, 8))-\(hex(milliseconds & 0xFFFF, 4))-\(hex(0x7000 | high, 4))-"
            + "\(hex(variant >> 48, 4))-\(hex(variant & 0xFFFF_FFFF_FFFF, 12))"
    }
}
