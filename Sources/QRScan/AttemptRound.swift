import Foundation

/// A round of independent attempts on one frame, shared by the decoding thread and its helper:
/// each takes the next attempt that still fits in the frame's budget, until none is left.
///
/// Outcomes land in the attempts' order whichever thread ran them, so the decoder reads the
/// same results with one thread or two whenever the budget lets every attempt run.
final class AttemptRound: @unchecked Sendable {
    // Everything mutable is guarded by `lock`; `attempts`, `frame` and `configuration` are
    // immutable and read from both threads.
    let attempts: [ScanAttempt]
    /// How many of the first attempts run whatever the budget says.
    let mandatory: Int
    let frame: GrayFrame
    let configuration: DecoderConfiguration
    private let lock = NSLock()
    private var next = 0
    private var outcomes: [AttemptOutcome?]
    private var ledger: FrameLedger

    init(_ attempts: [ScanAttempt], mandatory: Int = 0, frame: GrayFrame, configuration: DecoderConfiguration,
         ledger: FrameLedger) {
        self.attempts = attempts
        self.mandatory = mandatory
        self.frame = frame
        self.configuration = configuration
        self.ledger = ledger
        outcomes = Array(repeating: nil, count: attempts.count)
    }

    /// Runs attempts on the calling thread with `scanner` until the round is exhausted.
    func work(with scanner: ZBarScanner, asHelper: Bool) {
        while let (index, attempt) = take() {
            let outcome = attempt.run(on: frame, with: scanner, configuration: configuration)
            finish(index, outcome, pixels: attempt.pixelCount(frameWidth: frame.width, frameHeight: frame.height), byHelper: asHelper)
        }
    }

    /// The outcomes in attempt order (`nil` for attempts the budget skipped), and the ledger
    /// with this round's costs added.
    var result: (outcomes: [AttemptOutcome?], ledger: FrameLedger) {
        lock.withLock { (outcomes, ledger) }
    }

    private func take() -> (Int, ScanAttempt)? {
        lock.withLock {
            while next < attempts.count {
                let index = next
                next += 1
                let pixels = attempts[index].pixelCount(frameWidth: frame.width, frameHeight: frame.height)
                // The first attempt of a frame always runs, however small the budget.
                if index < mandatory || ledger.attempts == 0 || ledger.fits(pixels: pixels) {
                    ledger.attempts += 1
                    return (index, attempts[index])
                }
            }
            return nil
        }
    }

    private func finish(_ index: Int, _ outcome: AttemptOutcome, pixels: Int, byHelper: Bool) {
        lock.withLock {
            outcomes[index] = outcome
            ledger.record(outcome.cpuTime, pixels: outcome.ran ? pixels : 0, byHelper: byHelper)
        }
    }
}

/// The CPU a frame has used so far (all decoding threads) against its budget, and what a
/// zbar pass costs per pixel on this machine, learnt as frames go by.
struct FrameLedger: Sendable {
    var budget: Duration
    /// The decoding thread's CPU clock and its reading when the frame started: everything that
    /// thread does for the frame (locating, bookkeeping, attempts) counts.
    let decodingThread: ThreadCPUTime
    let start: Duration
    /// CPU the helper thread spent on this frame's attempts.
    var helperSpent: Duration = .zero
    /// Attempts started on this frame.
    var attempts = 0
    /// Nanoseconds of CPU per scanned pixel (plain zbar pass). The first guess is a release
    /// build's on the 2-core machine (a 640x480 frame without a code, 9 ms); debug builds and
    /// other machines correct it after a few attempts.
    var nanosecondsPerPixel: Double

    init(budget: Duration, nanosecondsPerPixel: Double) {
        self.budget = budget
        self.nanosecondsPerPixel = nanosecondsPerPixel
        decodingThread = .currentThread()
        start = decodingThread.read()
    }

    /// CPU spent on this frame by every thread so far.
    var spent: Duration { decodingThread.read() - start + helperSpent }

    /// Whether an attempt over `pixels` pixels is predicted to end within the budget.
    func fits(pixels: Int) -> Bool {
        spent + .nanoseconds(Int64(Double(pixels) * nanosecondsPerPixel)) <= budget
    }

    mutating func record(_ cpu: Duration, pixels: Int, byHelper: Bool) {
        if byHelper { helperSpent += cpu }
        guard pixels >= 4096 else { return }
        let observed = Double(cpu.components.attoseconds) / 1e9 + Double(cpu.components.seconds) * 1e9
        // A slow average: one frame full of finder-like texture must not make the next frame
        // skip everything.
        nanosecondsPerPixel = 0.8 * nanosecondsPerPixel + 0.2 * observed / Double(pixels)
    }
}
