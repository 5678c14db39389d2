import CheckInCore

/// Whether a check-in or walk-in should put a badge in the print queue, and on which queue:
/// the store applies the policy inside the check-in's own transaction
/// (``KioskDatabase/enqueueBadge(_:guestID:code:walkIn:policy:queue:at:)``).
public struct BadgeRequest: Sendable, Equatable {
    public var policy: PrintPolicy
    /// The queue the job is written for (the print queue may move it to its failover queue).
    public var queue: String

    public init(policy: PrintPolicy, queue: String) {
        self.policy = policy
        self.queue = queue
    }
}
