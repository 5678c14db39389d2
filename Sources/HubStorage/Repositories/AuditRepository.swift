/// The hub's log of organizer actions.
public protocol AuditRepository: Sendable {
    /// Keeps `action` on its own: for an action whose change is not a store write of its own
    /// (a change written by a store method writes its entry in that method's transaction).
    func recordAction(_ action: OrganizerAction) async throws
    /// The event's actions, oldest first.
    func organizerActions(event: String) async throws -> [OrganizerAction]
    /// The log's entries that concern no event (accounts, sessions), oldest first.
    func accountActions() async throws -> [OrganizerAction]
}
