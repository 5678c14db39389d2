/// The advisory lock key of one guest of one event: 64-bit FNV-1a of the event id, a NUL and the
/// guest id. It must be the same in every hub process and version sharing a database, so it is
/// spelled out here rather than taken from `Hasher` (seeded per process).
enum GuestLockKey {
    static func key(event: String, guest: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        event.utf8.forEach(mix)
        mix(0)
        guest.utf8.forEach(mix)
        return Int64(bitPattern: hash)
    }
}
