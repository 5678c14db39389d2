/// Random UUID-formatted identifiers for new guests.
///
/// Foundation's `UUID()` opens `/dev/urandom` for every call on Linux, which showed up in
/// 100k-guest imports; this generator is seeded once from the system's random source and then
/// runs in user space (SplitMix64), which is plenty for identifiers that only need to be unique.
struct IdentifierGenerator {
    private var state: UInt64

    init() {
        var system = SystemRandomNumberGenerator()
        state = system.next()
    }

    private mutating func nextWord() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`, lower-case, version-4 layout.
    mutating func next() -> String {
        let high = (nextWord() & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let low = (nextWord() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        func hex(_ value: UInt64, _ digits: Int) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: digits - text.count) + text
        }
        return "\(hex(high >> 32, 8))-\(hex((high >> 16) & 0xFFFF, 4))-\(hex(high & 0xFFFF, 4))-\(hex(low >> 48, 4))-\(hex(low & 0xFFFF_FFFF_FFFF, 12))"
    }
}
