/// When keys typed into the console are a keyboard-wedge scan rather than a person
/// (`wedge_max_key_gap_ms`, `wedge_min_length` in the configuration).
public struct WedgeThresholds: Sendable, Equatable {
    /// The longest pause between two keys of one scan; `.zero` turns recognition off (every key
    /// goes to the open screen as typed).
    public var maxKeyGap: Duration
    /// The fewest characters before Enter that make a scan.
    public var minLength: Int

    public init(maxKeyGap: Duration, minLength: Int) {
        self.maxKeyGap = maxKeyGap
        self.minLength = minLength
    }

    /// 30 ms and 6 characters.
    ///
    /// The gap: USB HID scanners send one report per key press and one per release, every
    /// 1 ms (full speed) to 10 ms (low-speed devices polled at 10 ms), so 2–20 ms per key.
    /// Measured on the console's screen thread: a code `tmux send-keys` writes at once is read
    /// 40 µs per key with the next key always already waiting (gap 0: keys waiting when the
    /// previous one is read count as arriving with it, so a busy machine does not stretch a
    /// burst); one tmux command per key arrived 3–12 ms apart, as fast as a scanner. People's
    /// keys come 100–250 ms apart on average (about 120 ms for the fastest typists); a two-key
    /// roll can be quicker, but not six keys and Enter in a row. Held keys reach the screen at
    /// most 30 ms late, which nobody notices.
    ///
    /// The length: ticket codes are longer than 6 characters, while the console's short
    /// answers (a 4-digit PIN, a letter on a prompt) stay typed even when a test tool sends
    /// them at machine speed.
    public static let standard = WedgeThresholds(maxKeyGap: .milliseconds(30), minLength: 6)

    /// Nothing is recognized: every key is typed.
    public static let off = WedgeThresholds(maxKeyGap: .zero, minLength: 6)

    public var isEnabled: Bool { maxKeyGap > .zero }
}
