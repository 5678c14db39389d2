/// Whether the station may decide on its roster as it is, or stood still long enough (a
/// `SIGSTOP`, a suspended box, a machine too loaded to run it) that other doors may have admitted
/// guests it has not heard of: its follow request and its pulls did not run meanwhile.
///
/// A pure value: the sync engine feeds it the times its heartbeat ran and the times its pulls
/// started and ended; the station asks ``needsPull`` before deciding a scan. After a stall, one
/// pull that *started* after the station ran again makes the roster current again.
public struct StallWatch: Sendable, Equatable {
    /// A gap between two heartbeats longer than this is a stall. The heartbeat runs every
    /// ``heartbeat``; a loaded machine delays it by well under a second.
    public static let threshold: Duration = .seconds(2)
    public static let heartbeat: Duration = .milliseconds(250)

    /// A stall the roster has not caught up with.
    public struct Stall: Sendable, Equatable {
        /// How long the station stood still.
        public var length: Duration
        /// When it ran again.
        public var resumedAt: ContinuousClock.Instant

        public init(length: Duration, resumedAt: ContinuousClock.Instant) {
            self.length = length
            self.resumedAt = resumedAt
        }
    }

    private var lastBeat: ContinuousClock.Instant?
    /// The latest stall no pull has caught up with yet.
    public private(set) var stall: Stall?

    public init() {}

    /// The station runs at `now`: a gap since the previous beat longer than ``threshold`` is a
    /// stall that ended now.
    public mutating func beat(at now: ContinuousClock.Instant) {
        if let lastBeat, now - lastBeat > Self.threshold {
            let length = now - lastBeat
            // Two stalls before any pull: the roster is as old as the first one left it.
            stall = Stall(length: length + (stall?.length ?? .zero), resumedAt: now)
        }
        lastBeat = now
    }

    /// A pull that started at `startedAt` completed: the roster holds everything the hub had
    /// then, so a stall that ended before it is caught up.
    public mutating func pulled(startedAt: ContinuousClock.Instant) {
        if let stall, startedAt >= stall.resumedAt { self.stall = nil }
    }

    /// The first scan after the stall was decided without catching up: the scans after it do not
    /// wait again (the sync loops catch up in the background).
    public mutating func settled() {
        stall = nil
    }

    /// Whether the next decision should wait for a pull first.
    public var needsPull: Bool { stall != nil }
}
