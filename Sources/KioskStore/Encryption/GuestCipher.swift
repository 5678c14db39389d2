import CheckInCore
import Crypto
import Foundation
import Synchronization

/// Seals and opens guest data with keys derived (HKDF-SHA256) from the store's data key:
/// - values (names, e-mails, companies, codes, queued payloads): AES-GCM with a random nonce;
/// - ticket codes for exact lookup: a keyed digest (HMAC-SHA256, 128 bits) of the normalized code;
/// - search: a blind index, see ``searchTokens(_:)``;
/// - backups taken before the data was encrypted: AES-GCM of the whole file.
///
/// The SQL functions of ``CipherFunctions`` call it, so the schema's triggers and migrations
/// can seal and index without plaintext ever being stored.
public final class GuestCipher: Sendable {
    let sealKey: SymmetricKey
    let codeKey: SymmetricKey
    let searchKey: SymmetricKey
    let backupKey: SymmetricKey
    /// HMACs keyed once (the key's padded blocks hashed): each code or gram copies one and
    /// hashes only its own bytes.
    private let codeMAC: HMAC<SHA256>
    private let searchMAC: HMAC<SHA256>
    /// Seals the station's hub session (tokens, who signed in): `session.json`.
    let secretKey: SymmetricKey
    /// Tokens of grams already computed, for single writes (the schema's triggers) and searches,
    /// taken once per guest or query: names share most of their grams, so a roster needs tens
    /// of thousands of HMACs instead of millions. Made at first use: a bulk import needs
    /// none, and its memory counts against the import's target.
    private let sharedCache = Mutex<TokenCache?>(nil)

    private func withSharedCache<T>(_ body: (TokenCache) -> T) -> T {
        sharedCache.withLock { cache in
            let current = cache ?? TokenCache()
            cache = current
            return body(current)
        }
    }
    /// One token cache per core for bulk writes, kept warm from one write to the next (a
    /// download's pages share their grams). Bulk writes run one at a time, on the database's
    /// single writer, which is what makes sharing them safe.
    let bulkCaches = (0..<max(1, ProcessInfo.processInfo.activeProcessorCount)).map { _ in TokenCache() }

    init(dataKey: SymmetricKey, store: String) {
        func derive(_ purpose: String) -> SymmetricKey {
            HKDF<SHA256>.deriveKey(inputKeyMaterial: dataKey, salt: Data(store.utf8),
                                   info: Data("checkin-kiosk \(purpose) v1".utf8), outputByteCount: 32)
        }
        sealKey = derive("seal")
        codeKey = derive("code")
        searchKey = derive("search")
        backupKey = derive("backup")
        secretKey = derive("secret")
        codeMAC = HMAC(key: codeKey)
        searchMAC = HMAC(key: searchKey)
    }

    func seal(_ text: String) -> Data { seal(bytes: Data(text.utf8), with: sealKey) }

    func open(_ sealed: Data) throws(StorageKeyError) -> String {
        String(decoding: try open(bytes: sealed, with: sealKey, what: "guest data"), as: UTF8.self)
    }

    func seal(bytes: Data, with key: SymmetricKey) -> Data {
        // AES-GCM with a fresh 96-bit nonce cannot fail for inputs under 64 GB.
        try! AES.GCM.seal(bytes, using: key).combined!
    }

    /// Guest data sealed with a nonce from a bulk write's supply.
    func seal(bytes: Data, nonce: AES.GCM.Nonce) -> Data {
        try! AES.GCM.seal(bytes, using: sealKey, nonce: nonce).combined!
    }

    func open(bytes sealed: Data, with key: SymmetricKey, what: String) throws(StorageKeyError) -> Data {
        do {
            return try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key)
        } catch {
            throw .damaged(what: what)
        }
    }

    /// The keyed digest a ticket code is looked up by.
    func codeDigest(_ code: String) -> Data {
        var mac = codeMAC
        mac.update(data: Data(code.utf8))
        return Data(mac.finalize().prefix(16))
    }

    /// The keyed digest a whole order is looked up by: the order code in capitals (exports and
    /// staff write it either way), kept apart from ticket codes; nil without an order.
    func orderDigest(_ order: String) -> Data? {
        let order = order.trimmedWhitespace().uppercased()
        guard !order.isEmpty else { return nil }
        return codeDigest("order\u{0}" + order)
    }

    // MARK: Blind search index

    /// The blind index of a guest's folded text: the text is cut into segments at whitespace
    /// and ASCII punctuation (``isSegmentBoundary(_:)``); each three-character sequence of a
    /// segment (Unicode scalars, as SQLite's trigram tokenizer counted them), and each
    /// two-character one not followed by an ASCII letter or digit (``isEnumerable(_:)``),
    /// becomes a 6-hex-digit token, the first 24 bits of its HMAC under the search key.
    /// FTS5 indexes the tokens; the folded text is stored nowhere.
    ///
    /// Why segments, not words: a term's sequences without a boundary lie inside one segment
    /// of any text holding the term, so asking for them alone (``queryTokens(_:)``) finds every
    /// guest the whole term would, and the decrypted text confirms the rest. An e-mail address
    /// then shares its segments' tokens with the name ("maria.schneider@…").
    ///
    /// Why so few pairs: a pair followed by an ASCII letter or digit X is the start of the
    /// triple "pair + X", so a two-character term asks for its pair or any of its 36 triples.
    /// Latin text then has one pair per segment instead of one per character, CJK text keeps
    /// all of them, and a guest has about half the tokens of every pair and triple of every
    /// word: the index is built that much faster.
    ///
    /// What it reveals to someone without the key: how many distinct sequences a guest has, and
    /// which guests share a sequence (frequency analysis of common ones), not the sequences.
    /// 24-bit tokens collide now and then (shorter tokens made the index 11 % faster to build);
    /// search confirms every candidate on the decrypted text, so a collision costs a
    /// decryption, never a wrong result.
    func searchTokens(_ folded: String) -> String {
        withSharedCache { cache in searchTokens(folded, cache: cache) }
    }

    /// The same with a cache of the caller's own (bulk writes, one per thread).
    func searchTokens(_ folded: String, cache: TokenCache) -> String {
        // Local buffers, handed back to the cache at the end (a class's arrays in the loop cost
        // an exclusivity check and a retain at every access); the tables are raw memory.
        var out = cache.takeOut()
        var word = cache.takeWord()
        cache.startGuest()
        func flush() {
            func emit(_ start: Int, _ length: Int) {
                let key = Self.gramKey(word, start, length)
                let token: UInt32
                if let known = cache.token(for: key) {
                    token = known
                } else {
                    token = gramToken(word, start, length)
                    cache.remember(key, token)
                }
                guard cache.firstTimeForGuest(token) else { return }
                if !out.isEmpty { out.append(UInt8(ascii: " ")) }
                Self.appendHex(token, to: &out)
            }
            if word.count >= 2 {
                for start in 0..<(word.count - 1) {
                    if start + 3 <= word.count { emit(start, 3) }
                    if start + 2 == word.count || !Self.isEnumerable(word[start + 2]) { emit(start, 2) }
                }
            }
            word.removeAll(keepingCapacity: true)
        }
        for scalar in folded.unicodeScalars {
            if Self.isSegmentBoundary(scalar) { flush() } else { word.append(scalar.value) }
        }
        flush()
        let text = String(decoding: out, as: UTF8.self)
        cache.giveBack(out: out, word: word)
        return text
    }

    /// A cache of gram tokens, and reused buffers, for one thread's bulk work: open-addressing
    /// tables of integers in raw memory with a multiplicative hash (Swift's Dictionary and Set
    /// hash with SipHash, and a class's arrays cost an exclusivity check and a retain at every
    /// access: together most of the blind index's cost for ten million grams). Unchecked: each
    /// part of a bulk seal uses its own, from one thread at a time (``seal(_:caches:)``).
    final class TokenCache: @unchecked Sendable {
        /// 2^17 slots (1.5 MB): a 100k roster's distinct sequences fit, and three caches (two
        /// bulk, one shared) stay within the import's memory target.
        private static let bits = 17
        private static let slots = 1 << bits
        private static let seenSlots = 1 << 10
        private let keys = UnsafeMutablePointer<UInt64>.allocate(capacity: slots)
        private let values = UnsafeMutablePointer<UInt32>.allocate(capacity: slots)
        private(set) var count = 0
        /// The guest's tokens so far: slots stamped with the guest's generation.
        private let seenTokens = UnsafeMutablePointer<UInt32>.allocate(capacity: seenSlots)
        private let seenStamps = UnsafeMutablePointer<UInt32>.allocate(capacity: seenSlots)
        private var generation: UInt32 = 1
        private var out: [UInt8] = []
        private var word: [UInt32] = []

        init() {
            keys.initialize(repeating: 0, count: Self.slots)
            values.initialize(repeating: 0, count: Self.slots)
            seenTokens.initialize(repeating: 0, count: Self.seenSlots)
            seenStamps.initialize(repeating: 0, count: Self.seenSlots)
        }

        deinit {
            keys.deallocate()
            values.deallocate()
            seenTokens.deallocate()
            seenStamps.deallocate()
        }

        func takeOut() -> [UInt8] {
            var buffer: [UInt8] = []
            swap(&buffer, &out)
            buffer.removeAll(keepingCapacity: true)
            return buffer
        }

        func takeWord() -> [UInt32] {
            var buffer: [UInt32] = []
            swap(&buffer, &word)
            buffer.removeAll(keepingCapacity: true)
            return buffer
        }

        func giveBack(out: [UInt8], word: [UInt32]) {
            self.out = out
            self.word = word
        }

        @inline(__always) private static func slot(_ key: UInt64, bits: Int) -> Int {
            Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
        }

        /// A gram's token, if known. Gram keys are never 0 (scalars are not), which marks a free slot.
        @inline(__always) func token(for key: UInt64) -> UInt32? {
            var index = Self.slot(key, bits: Self.bits)
            while keys[index] != 0 {
                if keys[index] == key { return values[index] }
                index = (index + 1) & (Self.slots - 1)
            }
            return nil
        }

        func remember(_ key: UInt64, _ token: UInt32) {
            if count > Self.slots * 7 / 10 { clear() }
            var index = Self.slot(key, bits: Self.bits)
            while keys[index] != 0 && keys[index] != key { index = (index + 1) & (Self.slots - 1) }
            if keys[index] == 0 { count += 1 }
            keys[index] = key
            values[index] = token
        }

        func clear() {
            keys.update(repeating: 0, count: Self.slots)
            count = 0
        }

        func startGuest() {
            generation &+= 1
            if generation == 0 {  // wrapped: old stamps could look current
                seenStamps.update(repeating: 0, count: Self.seenSlots)
                generation = 1
            }
        }

        /// Whether the guest has not had this token yet (and now has it).
        @inline(__always) func firstTimeForGuest(_ token: UInt32) -> Bool {
            var index = Self.slot(UInt64(token) | 1 << 40, bits: 10)
            var probes = 0
            while seenStamps[index] == generation {
                if seenTokens[index] == token { return false }
                index = (index + 1) & (Self.seenSlots - 1)
                probes += 1
                if probes == Self.seenSlots { return true }  // full (a guest with a thousand grams): a duplicate is harmless
            }
            seenStamps[index] = generation
            seenTokens[index] = token
            return true
        }
    }

    /// Whether a scalar separates segments of the indexed text: whitespace, and ASCII characters
    /// other than letters and digits (the `.`, `@` and `-` of e-mails and ticket codes).
    /// Punctuation of other scripts stays inside segments: any fixed rule is correct, since
    /// terms are cut by the same one.
    @inline(__always) static func isSegmentBoundary(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value < 0x80 else { return scalar.properties.isWhitespace }
        return !((0x30...0x39).contains(value) || (0x61...0x7A).contains(value) || (0x41...0x5A).contains(value))
    }

    /// Whether a scalar is one of the 36 a folded pair is completed with when searched for: an
    /// ASCII digit or lower-case letter (folded text has no upper case).
    @inline(__always) static func isEnumerable(_ value: UInt32) -> Bool {
        (0x30...0x39).contains(value) || (0x61...0x7A).contains(value)
    }

    private static let enumerable: [UInt32] = Array(0x30...0x39) + Array(0x61...0x7A)

    /// What a folded search term asks the index for: groups of tokens, every group needed and
    /// any token of a group enough. For each segment of the term, each of its triples is a
    /// group of one; a two-character segment is the group of its pair and the 36 triples that
    /// start with it (see ``searchTokens(_:)``). A term without any (one character, or
    /// punctuation between single characters: "a.b") asks for nothing: it is answered by
    /// decrypting.
    func queryTokens(_ term: String) -> [[String]] {
        var segments: [[UInt32]] = [[]]
        for scalar in term.unicodeScalars {
            if Self.isSegmentBoundary(scalar) { segments.append([]) } else { segments[segments.count - 1].append(scalar.value) }
        }
        return withSharedCache { cache in
            func token(_ scalars: [UInt32], _ start: Int, _ length: Int) -> String {
                let key = Self.gramKey(scalars, start, length)
                var out: [UInt8] = []
                Self.appendHex(cache.token(for: key) ?? gramToken(scalars, start, length), to: &out)
                return String(decoding: out, as: UTF8.self)
            }
            return segments.flatMap { scalars -> [[String]] in
                switch scalars.count {
                case 0, 1: return []
                case 2: return [[token(scalars, 0, 2)] + Self.enumerable.map { token(scalars + [$0], 0, 3) }]
                default: return (0...(scalars.count - 3)).map { [token(scalars, $0, 3)] }
                }
            }
        }
    }

    /// A gram as one integer: up to three scalars of 21 bits, the top bit telling trigrams from bigrams.
    static func gramKey(_ scalars: [UInt32], _ start: Int, _ length: Int) -> UInt64 {
        var key: UInt64 = length == 3 ? 1 << 63 : 0
        for offset in 0..<length { key |= UInt64(scalars[start + offset]) << (21 * UInt64(offset)) }
        return key
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    static func appendHex(_ value: UInt32, to out: inout [UInt8]) {
        hexDigits.withUnsafeBufferPointer { digits in
            out.append(digits[Int(value >> 20 & 0xF)]); out.append(digits[Int(value >> 16 & 0xF)])
            out.append(digits[Int(value >> 12 & 0xF)]); out.append(digits[Int(value >> 8 & 0xF)])
            out.append(digits[Int(value >> 4 & 0xF)]); out.append(digits[Int(value & 0xF)])
        }
    }

    /// The first 24 bits of the gram's HMAC (over its UTF-8) under the search key.
    private func gramToken(_ scalars: [UInt32], _ start: Int, _ length: Int) -> UInt32 {
        var gram = String.UnicodeScalarView()
        for offset in 0..<length { gram.append(Unicode.Scalar(scalars[start + offset]) ?? "?") }
        var mac = searchMAC
        mac.update(data: Data(String(gram).utf8))
        return mac.finalize().withUnsafeBytes { UInt32($0[0]) << 16 | UInt32($0[1]) << 8 | UInt32($0[2]) }
    }
}
