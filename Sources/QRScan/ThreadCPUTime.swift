import Glibc

/// CPU time used by a thread. The decoder's time budget counts this, not wall time:
/// on a machine shared with other work, wall time would make the cascade give up on frames
/// because of someone else's load, and the same frame would decode differently from run to run.
/// On the station (a dedicated box) the two are nearly the same.
struct ThreadCPUTime: Sendable {
    private let clock: clockid_t

    /// The calling thread's CPU clock, readable from any thread (the helper thread checks the
    /// frame's budget against the decoding thread's time as well as its own).
    static func currentThread() -> ThreadCPUTime {
        var clock = clockid_t()
        if pthread_getcpuclockid(pthread_self(), &clock) != 0 { clock = CLOCK_THREAD_CPUTIME_ID }
        return ThreadCPUTime(clock: clock)
    }

    /// CPU time of this clock's thread so far.
    func read() -> Duration {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }

    /// CPU time used by the calling thread so far.
    static func now() -> Duration {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }
}
