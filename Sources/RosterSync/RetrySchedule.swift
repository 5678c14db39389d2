/// How long to wait before retrying after consecutive transient failures: 1, 2, 4, 8, 16, then
/// 30 s for ever (issue 6). A hub answer of `429` with `Retry-After` overrides the schedule.
public struct RetrySchedule: Sendable, Equatable {
    /// The waits; the last one repeats.
    public var steps: [Duration]

    public init(steps: [Duration] = [1, 2, 4, 8, 16, 30].map { .seconds($0) }) {
        precondition(!steps.isEmpty, "a retry schedule needs at least one step")
        self.steps = steps
    }

    /// The wait after `failures` consecutive failures (1 = the first failure); zero for none.
    public func delay(afterFailures failures: Int) -> Duration {
        guard failures > 0 else { return .zero }
        return steps[min(failures, steps.count) - 1]
    }

    /// The wait the hub asked for with `Retry-After`, bounded so a confused hub cannot park the
    /// station for hours; the schedule's wait when the hub gave none.
    public func delay(afterFailures failures: Int, retryAfterSeconds: Int?) -> Duration {
        if let retryAfterSeconds { return .seconds(max(0, min(retryAfterSeconds, 300))) }
        return delay(afterFailures: failures)
    }
}
