/// The screen thread's side of wedge recognition: when each key arrived, and how long the next
/// read may wait before held keys are due.
///
/// A key's arrival is the time it was read, unless it was already waiting when the key before
/// it was read: then both came in one write (a scanner's burst, tmux `send-keys`) and it shares
/// that arrival. A busy machine that reads a burst slowly therefore never stretches its gaps.
struct KeyArrivals {
    private(set) var detector: WedgeBurstDetector
    private let origin = ContinuousClock.now
    private var previousArrival = Duration.zero
    private var previousHadMoreWaiting = false

    init(detector: WedgeBurstDetector) {
        self.detector = detector
    }

    private var now: Duration { ContinuousClock.now - origin }

    var isHolding: Bool { detector.deadline != nil }

    /// The read timeout: `idle` milliseconds, or less while keys are held (0: due now).
    func timeoutMilliseconds(idle: Int32) -> Int32 {
        guard let deadline = detector.deadline else { return idle }
        let left = deadline - now
        guard left > .zero else { return 0 }
        let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
        return Int32(min(Int64(idle), milliseconds))
    }

    /// A key was read; `moreWaiting`: further input was already there right after it.
    mutating func receive(_ key: Key, moreWaiting: Bool) -> [TerminalInput] {
        let arrival = previousHadMoreWaiting ? previousArrival : now
        previousArrival = arrival
        previousHadMoreWaiting = moreWaiting
        return detector.receive(key, at: arrival)
    }

    /// The read timed out: nothing was waiting.
    mutating func nothingWaiting() {
        previousHadMoreWaiting = false
    }

    mutating func expire() -> [TerminalInput] {
        detector.expire(at: now)
    }
}
