import Foundation

/// A ``QRDecoder`` confined to its own thread: zbar scanners are not thread-safe, and decoding
/// (10–30 ms of CPU per frame) must not occupy one of the cooperative pool's two threads.
///
/// One frame at a time: callers await each result, so frames that arrive meanwhile wait in the
/// source's newest-wins buffer instead of piling up here. The thread (and the decoder's helper
/// thread, see ``DecoderConfiguration/threads``) runs at a lower priority than the check-in
/// flow (``DecoderPriority``).
public final class DecoderThread: @unchecked Sendable {
    // `decoder` is touched only by `thread`; `condition` guards `job` and `stopping`.
    private let decoder: QRDecoder
    private let condition = NSCondition()
    private var job: (frame: GrayFrame, reply: CheckedContinuation<DecodeResult, Never>)?
    private var resetRequested = false
    private var stopping = false

    public init(configuration: DecoderConfiguration = DecoderConfiguration()) {
        decoder = QRDecoder(configuration: configuration)
        let thread = Thread { [self] in loop() }
        thread.name = "kiosk.decoder"
        thread.start()
    }

    /// Decodes one frame on the decoder thread.
    public func decode(_ frame: GrayFrame) async -> DecodeResult {
        await withCheckedContinuation { reply in
            condition.lock()
            precondition(job == nil, "DecoderThread takes one frame at a time")
            job = (frame, reply)
            condition.signal()
            condition.unlock()
        }
    }

    /// Forgets what earlier frames taught before the next frame (a new stream or a reconnect).
    public func reset() {
        condition.lock()
        resetRequested = true
        condition.unlock()
    }

    /// Ends the thread once the current frame (if any) is done.
    public func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        DecoderPriority.lowerCurrentThread()
        while true {
            condition.lock()
            while job == nil && !stopping { condition.wait() }
            let next = job
            job = nil
            let reset = resetRequested
            resetRequested = false
            let stop = stopping && next == nil
            condition.unlock()
            if stop { return }
            guard let next else { continue }
            if reset { decoder.reset() }
            next.reply.resume(returning: decoder.decode(next.frame))
        }
    }
}
