import Foundation
import Synchronization

/// Frames as they arrive, newest first: when the consumer is slower than the source, stale
/// frames are dropped (at most one waits), never queued without bound.
public typealias FrameStream = AsyncThrowingStream<GrayFrame, any Error>

/// Anything that delivers grayscale frames: a V4L2 camera, a raw frame pipe, still files, or a
/// test's fake. A stream ends normally when the source has no more frames (end of a pipe) and
/// with a ``FrameSourceError`` when it fails.
public protocol FrameSource: Sendable {
    /// Starts reading. Each call opens the source anew (a reconnect calls it again).
    func frames() -> FrameStream
}

/// Counts of what a source produced and what was dropped because the consumer was busy.
public final class FrameStatistics: Sendable {
    private let counts = Mutex((produced: 0, dropped: 0))
    public init() {}
    public var produced: Int { counts.withLock { $0.produced } }
    /// Frames replaced by a newer one before the consumer took them.
    public var dropped: Int { counts.withLock { $0.dropped } }
    func record(dropped: Bool) { counts.withLock { $0.produced += 1; if dropped { $0.dropped += 1 } } }
}

/// Runs a blocking frame reader on its own thread (never on Swift's cooperative pool, which
/// has two threads on a 2-core box) and hands frames over newest-wins.
public enum FramePump {
    /// What the reader calls for each frame; returns `false` once nobody listens any more.
    public typealias Emit = (GrayFrame) -> Bool

    /// Starts `read` on a new thread. `read` returns when its source ends, throws when it fails,
    /// and should check `isCancelled` between blocking calls.
    public static func start(
        name: String, statistics: FrameStatistics? = nil,
        _ read: @escaping @Sendable (_ emit: Emit, _ isCancelled: @escaping @Sendable () -> Bool) throws -> Void
    ) -> FrameStream {
        let (stream, continuation) = FrameStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        let flag = CancelFlag()
        continuation.onTermination = { _ in flag.cancel() }
        let thread = Thread {
            do {
                try read({ frame in
                    guard !flag.isCancelled else { return false }
                    let outcome = continuation.yield(frame)
                    switch outcome {
                    case .enqueued: statistics?.record(dropped: false)
                    case .dropped: statistics?.record(dropped: true)
                    case .terminated: return false
                    @unknown default: break
                    }
                    return true
                }, { flag.isCancelled })
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.name = name
        thread.start()
        return stream
    }
}

/// Set once when the consumer goes away; read by the reader thread.
final class CancelFlag: Sendable {
    private let value = Atomic(false)
    func cancel() { value.store(true, ordering: .releasing) }
    var isCancelled: Bool { value.load(ordering: .acquiring) }
}
