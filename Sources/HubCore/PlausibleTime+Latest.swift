import CheckInCore

extension PlausibleTime {
    /// The latest believable time at `now`: the upper end of ``CheckInCore/PlausibleTime/contains(_:now:)``.
    public static func latest(now: Timestamp) -> Timestamp { now.adding(milliseconds: maximumLeadMilliseconds) }
}
