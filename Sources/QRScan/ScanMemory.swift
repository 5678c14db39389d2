/// What the decoder carries from one frame of a stream to the next: where codes were read
/// (tried first, the way they were read), and candidates that resisted, so that their expensive
/// retries continue on the next frame where they stopped instead of starting over.
///
/// Frames of one attendee come in sequence, a hand moves a few pixels between them, and a
/// code that one frame's budget could not read often needs only the next retry.
struct ScanMemory: Sendable {
    /// A code read on a recent frame: its region, and the variant that read it.
    struct Hit: Sendable, Equatable {
        var candidate: CodeCandidate
        var variant: RegionVariant
        var frame: Int
    }

    /// A candidate no attempt has read yet: the variant its retries go on with.
    struct Pending: Sendable, Equatable {
        var candidate: CodeCandidate
        var nextVariant: RegionVariant
        var frame: Int
    }

    private(set) var hits: [Hit] = []
    private(set) var pending: [Pending] = []
    private(set) var frame = 0
    /// How many frames a hit keeps its region, and a pending candidate its place in the retries.
    var lifetime: Int

    init(lifetime: Int = 15) { self.lifetime = lifetime }

    /// A new frame: forgets what is older than `lifetime` frames.
    mutating func advance() {
        frame += 1
        hits.removeAll { frame - $0.frame > lifetime }
        pending.removeAll { frame - $0.frame > lifetime }
    }

    mutating func reset() {
        hits = []
        pending = []
    }

    /// The regions around the codes read most recently (all codes of that frame).
    var recentHits: [Hit] {
        guard let newest = hits.map(\.frame).max() else { return [] }
        return hits.filter { $0.frame == newest }
    }

    /// Codes read on this frame: their regions, padded by half the code's size on every side
    /// for a hand that moves, replace the older hits.
    mutating func remember(read: [QRDecoder.ReadCode]) {
        hits = read.compactMap { code in
            guard let b = code.code.bounds else { return nil }
            let region = PixelRect(x: b.x - b.width / 2, y: b.y - b.height / 2, width: b.width * 2, height: b.height * 2)
            return Hit(candidate: CodeCandidate(region: region, moduleSize: code.moduleSize, inverted: code.inverted, finders: []),
                       variant: code.variant, frame: frame)
        }
        let bounds = read.compactMap(\.code.bounds)
        pending.removeAll { pending in bounds.contains { pending.candidate.covers($0) } }
    }

    /// The variant `candidate`'s retries start with on this frame: where they stopped on an
    /// earlier frame when it was seen there, else the first retry.
    func firstRetry(for candidate: CodeCandidate) -> RegionVariant {
        pending.first { $0.candidate.matches(candidate) }?.nextVariant ?? RegionVariant.retries[0]
    }

    /// Candidates still unread after this frame, with the variant their retries go on with.
    mutating func remember(unread: [(candidate: CodeCandidate, nextVariant: RegionVariant)]) {
        for item in unread {
            pending.removeAll { $0.candidate.matches(item.candidate) }
            pending.append(Pending(candidate: item.candidate, nextVariant: item.nextVariant, frame: frame))
        }
    }
}

extension CodeCandidate {
    /// Whether `other` is probably the same code, moved a little between frames: same polarity,
    /// module size within a quarter, centres within a fifth of the region's size.
    func matches(_ other: CodeCandidate) -> Bool {
        guard inverted == other.inverted,
              abs(moduleSize - other.moduleSize) <= 0.25 * max(moduleSize, other.moduleSize) else { return false }
        let dx = Double(region.x + region.width / 2 - other.region.x - other.region.width / 2)
        let dy = Double(region.y + region.height / 2 - other.region.y - other.region.height / 2)
        let reach = 0.2 * Double(max(region.width, region.height))
        return dx * dx + dy * dy <= reach * reach
    }
}
