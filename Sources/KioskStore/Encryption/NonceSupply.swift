import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Random 96-bit AES-GCM nonces, read from the kernel's random source a few thousand at a time.
///
/// `AES.GCM.seal` without a nonce asks for 12 random bytes on every call; a bulk write seals
/// four fields of 100k guests, and those calls were a tenth of its sealing time (`perf` of
/// `kiosk bench store`). The nonces are exactly as random: only the reads are batched. One
/// supply per thread: it is a value, used by one part of a bulk seal at a time.
struct NonceSupply {
    /// How many nonces one read of the random source brings.
    private static let batch = 4_096
    private var bytes: [UInt8] = []
    private var next = 0

    mutating func nonce() -> AES.GCM.Nonce {
        if next + 12 > bytes.count { refill() }
        defer { next += 12 }
        // 12 bytes is the nonce size AES.GCM.Nonce accepts: it cannot throw here.
        return try! AES.GCM.Nonce(data: bytes[next..<(next + 12)])
    }

    private mutating func refill() {
        bytes = [UInt8](repeating: 0, count: 12 * Self.batch)
        var filled = 0
        // The kernel's random source, as getrandom(2) reads it once initialised (at boot).
        let source = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        if source >= 0 {
            bytes.withUnsafeMutableBytes { buffer in
                while filled < buffer.count {
                    let count = read(source, buffer.baseAddress! + filled, buffer.count - filled)
                    if count > 0 { filled += count } else if count == 0 || errno != EINTR { break }
                }
            }
            close(source)
        }
        // Should the device be missing (a chroot), the system generator fills what is missing.
        if filled < bytes.count {
            var generator = SystemRandomNumberGenerator()
            for index in filled..<bytes.count { bytes[index] = generator.next() }
        }
        next = 0
    }
}
