import Synchronization

/// When to refresh PostgreSQL's statistics of a fast-growing table.
///
/// Check-ins of a new event arrive faster than autovacuum re-analyzes (once a minute at best):
/// until then the planner believes the event has almost no rows and looks a batch's guests up
/// through the `(event_id, seq)` index, reading every check-in of the event per batch (40 ms at
/// 40k rows instead of 1 ms). Analyzing after 200, 400, 800… rows written by this process keeps
/// the estimate within a factor of two at a negligible cost.
final class AnalyzeSchedule: Sendable {
    private struct State {
        var written = 0
        var next: Int
        var running = false
    }
    private let state: Mutex<State>

    init(first: Int = 200) {
        state = Mutex(State(next: first))
    }

    /// Records `rows` written; true when the caller should start an ANALYZE now (then call
    /// ``finished()`` when it ends). Never two at once.
    func record(_ rows: Int) -> Bool {
        state.withLock { state in
            state.written += rows
            guard !state.running, state.written >= state.next else { return false }
            state.running = true
            state.next = state.written * 2
            return true
        }
    }

    func finished() {
        state.withLock { $0.running = false }
    }
}
