import NIOCore
import Synchronization

/// The end of a request's connection, awaited with cancellation: a live stream that waits
/// minutes for a change notices at once that the browser went away (a closed tab, a reload), and
/// gives its places back then rather than at its next write.
package final class ConnectionClosed: Sendable {
    private struct State {
        var closed = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    package init(_ closeFuture: EventLoopFuture<Void>) {
        closeFuture.whenComplete { [self] _ in end() }
    }

    package var isClosed: Bool { state.withLock { $0.closed } }

    /// Takes the connection as closed from here on: the server is shutting down, and a stream
    /// that would wait minutes for a change must end now (the browser reconnects on its own).
    package func end() {
        let waiter = state.withLock { state in
            state.closed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Returns when the connection has closed, or the waiting task is cancelled. One waiter at a time.
    package func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    if state.closed || Task.isCancelled { return true }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
