import Foundation
import Logging

/// The camera side of the station in one value: a frame source, the decoder on its own thread,
/// payload hygiene and the debouncer, delivering ``ScanEvent``s.
///
/// ```swift
/// let pipeline = ScanPipeline(source: V4L2Camera(path: "/dev/video0"), reconnect: .standard)
/// for await event in pipeline.events() {
///     if case .scanned(let payload, _, _) = event { station.checkIn(payload) }
/// }
/// ```
/// A failing source is reported as ``ScanEvent/sourceFault(_:at:)``; with a reconnect policy,
/// retryable faults (no device, unplugged, busy, permission) are retried with backoff and
/// scanning resumes by itself with ``ScanEvent/sourceRestored(at:)``.
public struct ScanPipeline: Sendable {
    public let source: any FrameSource
    public let decoder: DecoderConfiguration
    public let debounceWindow: Duration
    public let reconnect: ReconnectPolicy?

    public init(source: any FrameSource, decoder: DecoderConfiguration = DecoderConfiguration(),
                debounceWindow: Duration = ScanDebouncer.defaultWindow, reconnect: ReconnectPolicy? = nil) {
        self.source = source
        self.decoder = decoder
        self.debounceWindow = debounceWindow
        self.reconnect = reconnect
    }

    /// Starts scanning; the sequence ends when the source ends (or fails without reconnect), and
    /// stops the source when the consumer stops iterating.
    public func events() -> AsyncStream<ScanEvent> {
        // Events are few (debounced) and small; the bound only guards against a stalled consumer.
        let (stream, continuation) = AsyncStream<ScanEvent>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let task = Task { [self] in
            await run(continuation)
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func run(_ output: AsyncStream<ScanEvent>.Continuation) async {
        let logger = Logger(label: "kiosk.qr")
        let thread = DecoderThread(configuration: decoder)
        defer { thread.stop() }
        var debouncer = ScanDebouncer(window: debounceWindow)
        var failures = 0
        var lastFault: FrameSourceError?
        while !Task.isCancelled {
            do {
                for try await frame in source.frames() {
                    if lastFault != nil {
                        lastFault = nil
                        failures = 0
                        output.yield(.sourceRestored(at: Date()))
                    }
                    let result = await thread.decode(frame)
                    let now = ContinuousClock.now
                    for code in result.codes {
                        switch code.payload {
                        case .text(let text):
                            if debouncer.admit(text, at: now) {
                                output.yield(.scanned(payload: text, symbology: code.symbology, at: Date()))
                            }
                        case .unreadable(let reason):
                            if debouncer.admit("\u{0}unreadable:\(reason.rawValue)", at: now) {
                                output.yield(.unreadable(reason: reason, at: Date()))
                            }
                        }
                    }
                    if Task.isCancelled { return }
                }
                return  // the source ended normally (end of a pipe or of the files)
            } catch {
                let fault = error as? FrameSourceError ?? .readFailed(path: "frames", detail: "\(error)")
                logger.warning("frame source failed", metadata: ["error": "\(fault)"])
                // Once per kind of fault, not on every retry.
                if fault != lastFault { output.yield(.sourceFault(fault, at: Date())) }
                guard let reconnect, fault.isRetryable else { return }
                lastFault = fault
                failures += 1
                thread.reset()
                debouncer.reset()
                try? await Task.sleep(for: reconnect.delay(afterFailures: failures))
            }
        }
    }
}

/// How long to wait before reopening a failed source: doubling from `initial` up to `maximum`.
public struct ReconnectPolicy: Sendable, Equatable {
    public var initial: Duration
    public var maximum: Duration

    public init(initial: Duration, maximum: Duration) {
        self.initial = initial
        self.maximum = maximum
    }

    /// 0.5 s, 1 s, 2 s, then every 5 s: a re-plugged camera is back within seconds.
    public static let standard = ReconnectPolicy(initial: .milliseconds(500), maximum: .seconds(5))

    public func delay(afterFailures failures: Int) -> Duration {
        var delay = initial
        for _ in 1..<max(1, failures) where delay < maximum { delay *= 2 }
        return min(delay, maximum)
    }
}
