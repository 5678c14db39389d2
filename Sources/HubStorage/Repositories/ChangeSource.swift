/// Where a store reports the changes it commits: ``ChangeFeed`` in a serving hub.
public protocol ChangeSink: Sendable {
    /// `event`'s roster changed (a commit, never before it). `sequence`, when known, is a change
    /// sequence number no change of the event before this report exceeds.
    func changed(event: String, sequence: Int64?)
    /// Whether every change committed from now on, through any process, will be reported
    /// (PostgreSQL LISTEN while connected). While not, the sink polls
    /// ``ChangeSource/latestChange(event:)``; turning true, it assumes anything may have changed
    /// while it was not.
    func reportsEveryChange(_ complete: Bool)
}

/// What a store offers the change feed: reports of its commits, and a cheap probe to poll when
/// reports may be missing.
public protocol ChangeSource: Sendable {
    /// Reports committed changes to `sink` until the calling task is cancelled: on PostgreSQL,
    /// every hub process's (LISTEN on a dedicated connection, reconnected with backoff); on
    /// SQLite, this process's own.
    func reportChanges(to sink: any ChangeSink) async
    /// The newest change sequence number of an event's roster (access types, guests,
    /// check-ins), 0 when it has none. It grows with every change of the event.
    func latestChange(event: String) async throws -> Int64
}
