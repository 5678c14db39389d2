import CheckInCore

/// A change waiting for the hub, as the outbox holds it.
public struct OutboxEntry: Sendable, Hashable {
    public var id: Int64
    public var kind: OutboxChange.Kind?
    /// The check-in's key, the walk-in's guest id, or the undone check-in's key.
    public var ref: String
    /// The change itself, or why this build cannot read it (refused locally, never sent).
    public var change: Result<OutboxChange, OutboxChange.Unreadable>
    /// Where it is uploaded; `nil` until an event adopts a change recorded without a hub.
    public var destination: SyncDestination?
    public var sortAt: Timestamp
    public var attempts: Int
    public var lastError: String?
    public var hold: OutboxHold?
    /// Recorded while the station's clock was not believable.
    public var clockSuspect: Bool
}
