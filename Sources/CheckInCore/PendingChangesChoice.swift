/// What to do with changes that have not reached the hub yet when the station signs out or
/// switches to another event: the operator's choice, the same on the console and the command line.
public enum PendingChangesChoice: String, Sendable, Hashable, CaseIterable {
    /// Upload them first (with progress), then go on.
    case wait
    /// Go on and keep them: they still upload to the event they were recorded for.
    case keep
    /// Drop them (logged with their count): they never reach the hub.
    case discard
}
