/// A place a station's roster comes from and its check-ins go to (its hub, a pretix check-in
/// list), as the sync loop drives it (``SyncLoop``): each of ``SyncSchedule``'s actions carried
/// out there and answered in the schedule's terms. The source keeps its own bookkeeping (what
/// the operator is shown, what is logged); when to do what is the schedule's alone.
public protocol RosterSource: Sendable {
    /// Woken when a change is recorded: the loop pushes it rather than waiting for the interval.
    var wakeup: SyncWakeup { get }
    /// Whether a follow channel brings the pulls now (the hub's long-poll, announcing changes as
    /// they commit): the interval cycle then only pushes and reports. `false` for a source
    /// without one (pretix).
    func isFollowing() async -> Bool
    /// Downloads what changed at the source.
    func pullRound() async -> SyncRound
    /// Uploads the outbox, in order.
    func pushRound() async -> SyncRound
    /// Tells the source how the station is, after a cycle (a source with no such report does nothing).
    func reportRound() async
}

/// How a pull or push at a ``RosterSource`` went.
public enum SyncRound: Sendable, Equatable {
    /// The source answered (or did not): the schedule decides what follows.
    case answered(SyncSchedule<ContinuousClock.Instant>.Answer)
    /// The source will not take this station any more (a device revoked in pretix): the loop ends.
    case ended
}
