import Synchronization

/// Wakes a sync loop's sleep early: a check-in was recorded and should go up now. A nudge while
/// nobody sleeps is kept for the next sleep, so none is lost between two waits.
public final class SyncWakeup: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Bool, Never>?
        var generation = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Something to send: the sleeping loop wakes (or the next sleep returns at once).
    public func nudge() {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: true)
    }

    /// Sleeps until `deadline`, a nudge or cancellation. One sleeper at a time.
    /// - Returns: whether a nudge woke it.
    public func sleep(until deadline: ContinuousClock.Instant) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let (now, generation) = state.withLock { state -> (Bool?, Int) in
                    if state.pending {
                        state.pending = false
                        return (true, state.generation)
                    }
                    if Task.isCancelled { return (false, state.generation) }
                    state.generation += 1
                    state.waiter = continuation
                    return (nil, state.generation)
                }
                if let now {
                    continuation.resume(returning: now)
                    return
                }
                Task { [self] in
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    wake(generation: generation)
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: false)
        }
    }

    /// The timer of sleep `generation` ran out: wake it, unless a nudge already did.
    private func wake(generation: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard state.generation == generation, let waiter = state.waiter else { return nil }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: false)
    }
}
