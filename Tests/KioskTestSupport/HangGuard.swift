import Testing

extension Trait where Self == TimeLimitTrait {
    /// The time limit of every suite: it turns a hang into one failed test while the others
    /// go on, and is never a speed target (those are benchmarks).
    ///
    /// Five minutes, because the whole suite runs in parallel on a 2-core CI machine beside
    /// cupsd, PostgreSQL, hubs and stations: there a test that takes a tenth of a second alone
    /// takes a minute or more, the decoder threads (nice 10) most of all. A one-minute limit
    /// failed a camera-reconnect test that way (72 s) with nothing hung. A real hang is still
    /// named within the run's own limit (`Kiosk/run-tests.sh`).
    public static var hangGuard: Self { .timeLimit(.minutes(5)) }
}
