import Synchronization

/// Lets the print queue sleep until there is something to do: a `signal()` (a job was written,
/// an operator answered, shutdown began) or a timeout (time to ask the printer again).
///
/// A signal sent while nobody waits is kept, so a job written just before the queue goes to
/// sleep is not left until the next timeout. ``stop()`` wakes it for good (graceful shutdown).
final class WakeSignal: Sendable {
    private struct State {
        var stopped = false
        /// Until when a stopping queue may still work what is queued.
        var drainUntil: ContinuousClock.Instant?
        var pending = false
        var waiter: (id: UInt64, continuation: CheckedContinuation<Void, Never>)?
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Wakes the waiter, and every later wait returns at once; ``isStopped`` turns true once
    /// `draining` has passed (the queue works what is already queued until then).
    func stop(draining: Duration = .zero) {
        state.withLock { state in
            state.stopped = true
            state.drainUntil = .now + draining
        }
        signal()
    }

    var isStopped: Bool {
        state.withLock { state in state.stopped && (state.drainUntil.map { ContinuousClock.now >= $0 } ?? true) }
    }

    /// Shutdown began: no more waiting for new work.
    var isDraining: Bool { state.withLock { $0.stopped } }

    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume()
    }

    /// Returns when signalled, after `timeout`, or soon after the task is cancelled.
    func wait(upTo timeout: Duration) async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let signalled = state.withLock { state -> Bool in
                    if state.pending || state.stopped {
                        state.pending = false
                        return true
                    }
                    state.waiter = (id, continuation)
                    return false
                }
                if signalled {
                    continuation.resume()
                    return
                }
                Task {
                    try? await Task.sleep(for: timeout)
                    self.wake(id)
                }
            }
        } onCancel: {
            wake(id)
        }
    }

    /// Resumes waiter `id` if it is still waiting (each waiter is resumed exactly once).
    private func wake(_ id: UInt64) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter, waiter.id == id else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume()
    }
}
