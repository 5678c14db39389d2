/// Detection figures for one decoder over a corpus, in the shape `kiosk decode --truth --json`
/// prints.
public struct CorpusScore: Sendable {
    public struct Tally: Sendable, Equatable {
        /// Frames that hold at least one code.
        public var positives = 0
        /// Positive frames where every expected payload was found.
        public var detected = 0
        /// Frames where a payload was reported that the frame does not hold.
        public var misreads = 0
        /// Frames without a code where a code was reported.
        public var falsePositives = 0
        /// Frames without a code.
        public var negatives = 0
        /// Codes read but refused by payload hygiene (never passed on).
        public var unreadable = 0

        public var rate: Double { positives == 0 ? 0 : Double(detected) / Double(positives) }
    }

    public var overall = Tally()
    public var categories: [String: Tally] = [:]
    /// Decode milliseconds per frame, grouped by frame size ("640x480").
    public var milliseconds: [String: [Double]] = [:]

    public init() {}

    /// Adds one frame's outcome. `found` are the payloads read as text; `unreadable` how many
    /// codes were refused.
    public mutating func record(expected: [String], found: [String], unreadable: Int = 0,
                                category: String, size: String, milliseconds ms: Double?) {
        var tally = categories[category] ?? Tally()
        for index in 0..<2 {
            var t = index == 0 ? overall : tally
            if expected.isEmpty {
                t.negatives += 1
                if !found.isEmpty || unreadable > 0 { t.falsePositives += 1 }
            } else {
                t.positives += 1
                if Set(expected).isSubset(of: Set(found)) { t.detected += 1 }
                if found.contains(where: { !expected.contains($0) }) { t.misreads += 1 }
            }
            t.unreadable += unreadable
            if index == 0 { overall = t } else { tally = t }
        }
        categories[category] = tally
        if let ms { milliseconds[size, default: []].append(ms) }
    }

    /// The `p`-th percentile (0...100) of `values`, nearest-rank.
    public static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }
}
