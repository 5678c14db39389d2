import CheckInCore
import HubAPI
import RosterCSV

/// Events, their access types and rosters. A change an organizer makes (from the dashboard or
/// the command line) is written with its entry in the organizer log (`audit`, ``OrganizerAction``)
/// in one transaction: the change and its entry land together or not at all. `audit: nil` only
/// for what no person decided (tests, benchmarks).
public protocol EventRepository: Sendable {
    /// Creates the event; throws ``HubStoreError/duplicateEvent(_:)`` and writes nothing then.
    func createEvent(_ event: EventSummary, audit: OrganizerAction?) async throws
    /// Replaces the event's name, dates, time zone, tolerance window and undo time; throws
    /// ``HubStoreError/unknownEvent(_:)``.
    func updateEvent(_ event: EventSummary, audit: OrganizerAction?) async throws
    func event(id: String) async throws -> EventSummary?
    func events() async throws -> [EventSummary]
    /// The events `staff` may see (``EventAccess``): every event for organizers, the assigned ones otherwise.
    func events(visibleTo staff: StaffInfo) async throws -> [EventSummary]
    /// The event, or `nil` when it does not exist or `staff` may not see it (the routes answer
    /// both with the same 404).
    func event(id: String, visibleTo staff: StaffInfo) async throws -> EventSummary?
    /// Adds or changes an access type (stations learn it through the roster changes); throws
    /// ``HubStoreError/unknownEvent(_:)``.
    func upsertAccessType(event: String, _ type: AccessType, audit: OrganizerAction?) async throws
    /// The event's access types, by name.
    func accessTypes(event: String) async throws -> [AccessType]
    /// Imports roster rows by ticket code (new guests get the code as id); never touches
    /// check-ins. With `replace`, guests of the event missing from them (not walk-ins) are
    /// revoked and listed, their check-ins untouched. `audit` makes the entry from the summary.
    func importRoster(event: String, rows: [RosterRow], replace: Bool,
                      audit: (@Sendable (ImportSummary) -> OrganizerAction)?) async throws -> ImportSummary
    /// Marks a guest deleted (stations drop it with the next roster change); false for an unknown one.
    func deleteGuest(event: String, guestID: String) async throws -> Bool
}
