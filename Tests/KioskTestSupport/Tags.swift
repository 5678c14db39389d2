import Foundation
import Testing

extension Tag {
    /// Starts real processes or servers (kiosk, checkin-hub, cupsd, PostgreSQL, tmux).
    @Tag public static var endToEnd: Self
}

extension Trait where Self == ConditionTrait {
    /// For suites that start real processes or servers: they run unless `KIOSK_FAST_TESTS` is
    /// set, so the in-process tier runs alone in seconds (`KIOSK_FAST_TESTS=1 swift test`).
    /// Pair it with `.tags(.endToEnd)`.
    public static var endToEnd: Self {
        .enabled(if: ProcessInfo.processInfo.environment["KIOSK_FAST_TESTS"] == nil, "KIOSK_FAST_TESTS is set: in-process tests only")
    }
}
