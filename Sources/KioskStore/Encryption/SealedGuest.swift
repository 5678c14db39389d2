import CheckInCore
import Dispatch
import Foundation

/// A guest's fields as stored: the sealed record, the code's digest, and the blind index
/// tokens. Bulk writes (a roster download, an import) compute them in Swift, on every core, a
/// slice ahead of their inserts (``SealingSlices``), not through the SQL functions row by row:
/// 100k guests took 6.7 s to store that way against 1.4 s before encryption (`kiosk bench sync`).
struct SealedGuest: Sendable {
    var codeDigest: Data
    /// The order code's keyed digest (whole orders are looked up by it); nil without an order.
    var orderDigest: Data?
    /// ``GuestFields`` sealed.
    var record: Data
    /// The blind index of the guest's folded text.
    var tokens: String
}

extension GuestCipher {
    func seal(_ fields: GuestFields, cache: TokenCache, nonces: inout NonceSupply) -> SealedGuest {
        SealedGuest(codeDigest: codeDigest(fields.code), orderDigest: orderDigest(fields.facts.orderCode), record: seal(fields, nonce: nonces.nonce()),
                    tokens: searchTokens(SearchText.fold(fields.searchableText), cache: cache))
    }

    /// Seals many guests, split over the machine's cores, each part with its own token cache
    /// (`caches`, one per core, kept from one call to the next by ``SealingSlices``).
    func seal(_ guests: ArraySlice<GuestFields>, caches: [TokenCache]) -> [SealedGuest] {
        let guests = Array(guests)
        let parts = guests.count > 256 ? caches.count : 1
        let size = (guests.count + parts - 1) / max(parts, 1)
        var results = [SealedGuest?](repeating: nil, count: guests.count)
        results.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let output = buffer
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let cache = caches[part]
                var nonces = NonceSupply()
                for index in (part * size)..<min(guests.count, (part + 1) * size) {
                    let guest = guests[index]
                    output[index] = seal(guest, cache: cache, nonces: &nonces)
                }
            }
        }
        return results.map { $0! }
    }
}

/// Seals a bulk write's guests a slice at a time, as the write reaches them: memory holds two
/// slices' fields, sealed records and tokens (about 1 KB a guest), not the whole roster's. The
/// next slice is sealed on other threads while SQLite stores the current one.
struct SealingSlices<Source: Sendable> {
    let cipher: GuestCipher
    let guests: [Source]
    /// A guest's fields, taken from the write's own values a slice at a time.
    let fields: @Sendable (Source) -> GuestFields
    static var size: Int { 2_048 }
    private var slice: [SealedGuest] = []
    private var sliceStart = 0
    private var next: Prefetch?

    /// A slice being sealed in the background.
    private final class Prefetch: @unchecked Sendable {
        let start: Int
        let done = DispatchSemaphore(value: 0)
        var result: [SealedGuest] = []  // written before `done` is signalled, read after
        init(start: Int) { self.start = start }
    }

    /// Called inside the database's write: see ``GuestCipher/bulkCaches``.
    init(cipher: GuestCipher, guests: [Source], fields: @escaping @Sendable (Source) -> GuestFields) {
        self.cipher = cipher
        self.guests = guests
        self.fields = fields
    }

    private static func seal(_ part: ArraySlice<Source>, _ cipher: GuestCipher, _ fields: (Source) -> GuestFields) -> [SealedGuest] {
        cipher.seal(part.map(fields)[...], caches: cipher.bulkCaches)
    }

    /// The sealed fields of the `index`th guest; indexes are asked for in order.
    mutating func sealed(_ index: Int) -> SealedGuest {
        if slice.isEmpty || index >= sliceStart + slice.count {
            if let next, next.start == index {
                next.done.wait()
                slice = next.result
            } else {
                slice = Self.seal(guests[index..<min(guests.count, index + Self.size)], cipher, fields)
            }
            sliceStart = index
            next = nil
            let following = index + slice.count
            if following < guests.count {
                // The caches are the slice's own while it is sealed: the current slice is done with them.
                let prefetch = Prefetch(start: following)
                let (cipher, fields, part) = (cipher, fields, guests[following..<min(guests.count, following + Self.size)])
                DispatchQueue.global().async {
                    prefetch.result = Self.seal(part, cipher, fields)
                    prefetch.done.signal()
                }
                next = prefetch
            }
        }
        return slice[index - sliceStart]
    }

    /// Waits for a slice still being sealed: the caches must be free when the write ends.
    mutating func finish() {
        next?.done.wait()
        next = nil
    }
}
