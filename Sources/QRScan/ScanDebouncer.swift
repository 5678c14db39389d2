/// Turns a stream of per-frame sightings into scan events: the same payload seen again within
/// the window is the same scan; a different payload is a new scan at once.
///
/// The window slides: a phone held in front of the camera for ten seconds is one scan, and it
/// counts again only after it has been out of view for a whole window. A pure value type: the
/// caller passes the time, so tests need no clock.
/// ```swift
/// var debouncer = ScanDebouncer(window: .seconds(3))
/// debouncer.admit("ABC", at: t0)                 // true: a new scan
/// debouncer.admit("ABC", at: t0 + .seconds(1))   // false: still the same scan
/// debouncer.admit("XYZ", at: t0 + .seconds(1))   // true: another code
/// ```
public struct ScanDebouncer: Sendable {
    public static let defaultWindow: Duration = .seconds(3)

    public let window: Duration
    private var lastSeen: [String: ContinuousClock.Instant] = [:]

    public init(window: Duration = ScanDebouncer.defaultWindow) {
        self.window = window
    }

    /// Records a sighting of `key` and says whether it starts a new scan event.
    public mutating func admit(_ key: String, at now: ContinuousClock.Instant) -> Bool {
        // Forget what is out of the window, so memory stays bounded by what is in view.
        if lastSeen.count > 64 { lastSeen = lastSeen.filter { now - $0.value < window } }
        defer { lastSeen[key] = now }
        guard let previous = lastSeen[key] else { return true }
        return now - previous >= window
    }

    /// How many payloads are remembered (bounded by what was seen within one window).
    public var rememberedCount: Int { lastSeen.count }

    /// Forgets every sighting (e.g. after a camera reconnect, or after a check-in was undone).
    public mutating func reset() { lastSeen.removeAll() }
}
