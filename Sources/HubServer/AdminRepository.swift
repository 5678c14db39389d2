import CheckInCore
import HubAPI
import RosterCSV

/// The dashboard's changes to events and accounts, each written with its entry in the log of
/// organizer actions (``OrganizerAction``) in one transaction: the change and its entry land
/// together or not at all. The unaudited methods of ``EventRepository``, ``StaffRepository`` and
/// ``SessionRepository`` stay for the command line.
public protocol AdminRepository: Sendable {
    /// Creates the event; throws ``HubStoreError/duplicateEvent(_:)`` and writes nothing then.
    func createEvent(_ event: EventSummary, audit: OrganizerAction) async throws
    /// Replaces the event's name, dates, time zone, tolerance window and undo time; throws
    /// ``HubStoreError/unknownEvent(_:)``.
    func updateEvent(_ event: EventSummary, audit: OrganizerAction) async throws
    /// Adds or changes an access type (stations learn it through the roster changes).
    func upsertAccessType(event: String, _ type: AccessType, audit: OrganizerAction) async throws
    /// ``EventRepository/importRoster(event:rows:replace:)`` with its entry, made from the summary.
    func importRoster(event: String, rows: [RosterRow], replace: Bool,
                      audit: @escaping @Sendable (ImportSummary) -> OrganizerAction) async throws -> ImportSummary
    /// Throws ``HubStoreError/duplicateStaff(_:)`` and writes nothing then.
    func addStaff(_ staff: StaffInfo, passwordHash: String, audit: OrganizerAction) async throws
    func assign(event: String, email: String, now: Timestamp, audit: OrganizerAction) async throws -> StaffInfo
    /// Whether there was an assignment to end (no entry when there was none).
    func unassign(event: String, email: String, audit: OrganizerAction) async throws -> Bool
    /// ``StaffRepository/change(staff:_:now:)`` with its entry.
    func change(staff email: String, _ change: StaffChange, now: Timestamp, audit: OrganizerAction) async throws -> [SessionSummary]
    /// Revokes a live session; `false` (and no entry) when there was none.
    func revokeSession(id: String, now: Timestamp, audit: OrganizerAction) async throws -> Bool
    /// The event's access types, by name.
    func accessTypes(event: String) async throws -> [AccessType]
    /// The log's entries that concern no event (accounts, sessions), oldest first.
    func accountActions() async throws -> [OrganizerAction]
}
