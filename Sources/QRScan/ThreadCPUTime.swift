import Glibc

/// CPU time used by the calling thread. The decoder's time budget counts this, not wall time:
/// on a machine shared with other work, wall time would make the cascade give up on frames
/// because of someone else's load, and the same frame would decode differently from run to run.
/// On the station (a dedicated box) the two are nearly the same.
struct ThreadCPUTime {
    static func now() -> Duration {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }
}
