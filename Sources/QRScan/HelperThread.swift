import Foundation

/// A second decoding thread with its own zbar scanner, working on the same ``AttemptRound`` as
/// the decoding thread: a frame whose candidates need several attempts is done in about half
/// the wall time on the station's two cores. CPU per frame stays what it was (the budget counts
/// both threads).
final class HelperThread: @unchecked Sendable {
    // `scanner` is touched only by the helper thread; `condition` guards `round`, `busy` and
    // `stopping`.
    private let scanner: ZBarScanner
    private let condition = NSCondition()
    private var round: AttemptRound?
    private var busy = false
    private var stopping = false

    init(symbologies: Symbologies) {
        scanner = ZBarScanner(symbologies: symbologies)
        let thread = Thread { [self] in loop() }
        thread.name = "kiosk.decoder.helper"
        thread.start()
    }

    /// Lets the helper join `round`; returns at once.
    func join(_ round: AttemptRound) {
        condition.lock()
        self.round = round
        busy = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the helper has no attempt of the current round left in hand.
    func waitUntilIdle() {
        condition.lock()
        while busy { condition.wait() }
        condition.unlock()
    }

    /// Ends the thread (after the current round, if any).
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func loop() {
        DecoderPriority.lowerCurrentThread()
        while true {
            condition.lock()
            while round == nil && !stopping { condition.wait() }
            let next = round
            round = nil
            condition.unlock()
            guard let next else { return }
            next.work(with: scanner, asHelper: true)
            condition.lock()
            busy = false
            condition.broadcast()
            condition.unlock()
        }
    }
}
