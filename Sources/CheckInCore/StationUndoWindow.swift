/// How long after a check-in the hub still takes this station's undo of it (the event's station
/// undo time, `EventSummary.stationUndoMilliseconds`), and the station's decision on an undo.
///
/// The station decides before it says "undone": an undo the hub will refuse leaves the guest
/// admitted at the hub and every other door, so it is refused here, with the reason. The hub
/// measures from when it recorded the check-in; the station measures from the scan (never later)
/// and stops a margin short of the limit, so the queued undo still reaches the hub in time.
public struct StationUndoWindow: Sendable, Hashable {
    /// The hub's station undo time.
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// What the station keeps back for the undo's own trip to the hub: a tenth of the window,
    /// at most 15 s.
    public var marginMilliseconds: Int64 { min(15_000, max(0, milliseconds) / 10) }

    /// The decision on undoing a check-in scanned at `scannedAt`, at `now`.
    /// - Parameter uploaded: whether the hub may already have the check-in. One still waiting
    ///   in this station's outbox reaches the hub together with its undo, so any age is fine.
    public func decide(scannedAt: Timestamp, uploaded: Bool, now: Timestamp) -> UndoDecision {
        guard uploaded else { return .allowed }
        let age = now.milliseconds(since: scannedAt)
        return age <= max(0, milliseconds) - marginMilliseconds ? .allowed : .beyondHubWindow(windowMilliseconds: milliseconds, ageMilliseconds: age)
    }
}

/// Whether this station may undo a check-in.
public enum UndoDecision: Sendable, Hashable {
    case allowed
    /// The hub keeps admissions older than its station undo time: only support staff can undo them there.
    case beyondHubWindow(windowMilliseconds: Int64, ageMilliseconds: Int64)
}
