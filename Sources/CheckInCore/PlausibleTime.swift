/// The span of scan, undo and walk-in times the system believes.
///
/// A box without a real-time clock that booted without network time says 1970; a crafted
/// upload can say anything an `Int64` holds. Neither may reach the rules as if it were true:
/// the hub refuses such times (422, problem type ``implausibleTimeProblemType``), roster pages
/// never carry them, and a station whose own clock is outside this span shows a clock fault.
public enum PlausibleTime {
    /// 2020-01-01T00:00:00Z: nothing this product recorded can be older.
    public static let earliest = Timestamp(milliseconds: 1_577_836_800_000)
    /// How far ahead of the judging clock a time may lie (clocks of stations drift; a day is
    /// generous and still catches a clock set to the wrong year).
    public static let maximumLeadMilliseconds: Int64 = 86_400_000

    /// The problem-document `type` of the hub's 422 for a time outside the span. A station
    /// keeps such entries pending (its clock is wrong, not the check-in) instead of dropping them.
    public static let implausibleTimeProblemType = "urn:checkin-hub:implausible-time"

    /// Whether `time` lies in [``earliest``, `now` + ``maximumLeadMilliseconds``].
    public static func contains(_ time: Timestamp, now: Timestamp) -> Bool {
        time >= earliest && time <= now.adding(milliseconds: maximumLeadMilliseconds)
    }

    /// Whether a clock reading itself is believable (not before ``earliest``).
    public static func isPlausibleClock(_ now: Timestamp) -> Bool { now >= earliest }
}
