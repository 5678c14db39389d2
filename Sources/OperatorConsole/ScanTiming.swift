/// How the keys of one scan arrived: the gap before each key after the first (the terminator
/// included) and the whole duration. Scanners type a key every 1–20 ms; people rarely under 60.
public struct ScanTiming: Sendable, Equatable {
    public var keyGaps: [Duration]
    /// From the first key to the terminator.
    public var duration: Duration

    public init(keyGaps: [Duration], duration: Duration) {
        self.keyGaps = keyGaps
        self.duration = duration
    }

    /// The times keys arrived (from any origin) → their gaps and duration.
    public init(arrivals: [Duration]) {
        keyGaps = zip(arrivals.dropFirst(), arrivals).map { $0 - $1 }
        duration = (arrivals.last ?? .zero) - (arrivals.first ?? .zero)
    }

    public var longestGap: Duration? { keyGaps.max() }

    /// "10 keys in 18 ms, longest gap 3 ms" (for the scanner test screen); "received in 2 ms"
    /// for a line from a serial port, whose bytes carry no key times.
    public var words: String {
        guard !keyGaps.isEmpty else { return "received in \(Self.milliseconds(duration))" }
        let keys = keyGaps.count + 1
        var text = "\(keys) key\(keys == 1 ? "" : "s") in \(Self.milliseconds(duration))"
        if let longestGap { text += ", longest gap \(Self.milliseconds(longestGap))" }
        return text
    }

    static func milliseconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return value < 10 ? "\((value * 10).rounded() / 10) ms" : "\(Int(value.rounded())) ms"
    }
}
