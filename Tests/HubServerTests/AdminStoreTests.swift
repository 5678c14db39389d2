import CheckInCore
import Foundation
import HubAPI
import HubServer
import KioskTestSupport
import RosterCSV
import Testing

/// The dashboard's changes on SQLite and PostgreSQL alike (``AdminRepository``): each change and
/// its entry in the log of organizer actions land together, and a refused change leaves no entry.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking) struct AdminStoreTests {
    static let olga = StaffInfo(id: "st-olga", email: "olga@example.org", name: "Olga", role: .organizer)
    static let at = Timestamp(milliseconds: 1_790_000_000_000)

    static func action(_ kind: OrganizerAction.Kind, event: String?, subject: String, detail: String = "") -> OrganizerAction {
        OrganizerAction(eventID: event, actor: olga, kind: kind, subject: subject, detail: detail, at: at)
    }

    @Test(arguments: StoreContractTests.kinds) func anEventItsAccessTypesAndItsRosterAreWrittenWithTheirEntries(kind: String) async throws {
        let (store, directory) = try await StoreContractTests.makeStore(kind)
        defer { directory.remove() }
        let event = EventSummary(id: "ev1", name: "Gala", timeZone: "Europe/Berlin")
        let created = Self.action(.eventCreated, event: "ev1", subject: "ev1")
        try await store.createEvent(event, audit: created)
        // A second event with the same id is refused, and its entry with it.
        await #expect(throws: HubStoreError.duplicateEvent("ev1")) {
            try await store.createEvent(event, audit: Self.action(.eventCreated, event: "ev1", subject: "again"))
        }
        var edited = event
        edited.name = "Autumn Gala"
        edited.toleranceWindowMilliseconds = 45_000
        edited.startsAt = Timestamp(milliseconds: 1_790_000_000_000)
        let edit = Self.action(.eventEdited, event: "ev1", subject: "ev1", detail: "Autumn Gala")
        try await store.updateEvent(edited, audit: edit)
        #expect(try await store.event(id: "ev1") == edited)
        var unknown = edited
        unknown.id = "ev-nope"
        await #expect(throws: HubStoreError.unknownEvent("ev-nope")) {
            try await store.updateEvent(unknown, audit: Self.action(.eventEdited, event: "ev-nope", subject: "ev-nope"))
        }

        let type = AccessType(id: "day", name: "Day", reentry: true, validFrom: Timestamp(milliseconds: 1_790_000_000_000),
                              validUntil: Timestamp(milliseconds: 1_790_000_360_000))
        let saved = Self.action(.accessTypeSaved, event: "ev1", subject: "day")
        try await store.upsertAccessType(event: "ev1", type, audit: saved)
        #expect(try await store.accessTypes(event: "ev1") == [type])

        let rows = [RosterRow(line: 2, code: TicketCode(stored: "A1"), name: "Ana", email: "ana@example.org", company: "", accessType: "Day")]
        let summary = try await store.importRoster(event: "ev1", rows: rows, replace: false) { summary in
            Self.action(.rosterUploaded, event: "ev1", subject: "guests.csv", detail: "imported \(summary.imported)")
        }
        #expect(summary.imported == 1)
        #expect(try await store.stats(event: "ev1").expected == 1)
        let uploaded = Self.action(.rosterUploaded, event: "ev1", subject: "guests.csv", detail: "imported 1")
        #expect(try await store.organizerActions(event: "ev1") == [created, edit, saved, uploaded])
        await store.close()
    }

    @Test(arguments: StoreContractTests.kinds) func accountChangesAndSessionRevocationsAreWrittenWithTheirEntries(kind: String) async throws {
        let (store, directory) = try await StoreContractTests.makeStore(kind)
        defer { directory.remove() }
        try await store.createEvent(EventSummary(id: "ev1", name: "Gala"), audit: nil)
        let sam = StaffInfo(id: "st-sam", email: "sam@example.org", name: "Sam", role: .staff)
        let added = Self.action(.staffAdded, event: nil, subject: sam.email)
        try await store.addStaff(sam, passwordHash: "hash-1", audit: added)
        await #expect(throws: HubStoreError.duplicateStaff("SAM@example.org")) {
            try await store.addStaff(StaffInfo(id: "st-2", email: "SAM@example.org", name: "Sam 2", role: .staff), passwordHash: "h",
                                     audit: Self.action(.staffAdded, event: nil, subject: "twice"))
        }

        let assigned = Self.action(.staffAssigned, event: "ev1", subject: sam.email)
        #expect(try await store.assign(event: "ev1", email: sam.email, now: Self.at, audit: assigned) == sam)
        // Assigning again changes nothing, so it logs nothing.
        _ = try await store.assign(event: "ev1", email: sam.email, now: Self.at, audit: assigned)
        #expect(try await store.events(visibleTo: sam).map(\.id) == ["ev1"])
        let unassigned = Self.action(.staffUnassigned, event: "ev1", subject: sam.email)
        #expect(try await store.unassign(event: "ev1", email: sam.email, audit: unassigned))
        #expect(try await !store.unassign(event: "ev1", email: sam.email, audit: unassigned))
        #expect(try await store.events(visibleTo: sam).isEmpty)
        await #expect(throws: HubStoreError.unknownStaff("nobody@example.org")) {
            _ = try await store.assign(event: "ev1", email: "nobody@example.org", now: Self.at,
                                       audit: Self.action(.staffAssigned, event: "ev1", subject: "nobody"))
        }

        // Two sessions of Sam's: disabling revokes both.
        for id in ["ses-1", "ses-2"] {
            try await store.createSession(NewSession(id: id, staffID: sam.id, tokens: NewTokens(
                accessHash: "a-\(id)", accessExpires: Timestamp(milliseconds: Int64.max / 2), refreshHash: "r-\(id)",
                refreshExpires: Timestamp(milliseconds: Int64.max / 2)), createdAt: .now()))
        }
        let revoked = Self.action(.sessionRevoked, event: nil, subject: "ses-1")
        #expect(try await store.revokeSession(id: "ses-1", now: .now(), audit: revoked))
        #expect(try await !store.revokeSession(id: "ses-1", now: .now(), audit: revoked), "once")
        let disabled = Self.action(.staffDisabled, event: nil, subject: sam.email)
        #expect(try await store.change(staff: sam.email, .disable, now: .now(), audit: disabled).map(\.id) == ["ses-2"])
        #expect(try await store.staffAccounts(event: nil).first { $0.info.id == sam.id }?.disabled == true)
        let enabled = Self.action(.staffEnabled, event: nil, subject: sam.email)
        _ = try await store.change(staff: sam.email, .enable, now: .now(), audit: enabled)
        let reset = Self.action(.passwordReset, event: nil, subject: sam.email)
        _ = try await store.change(staff: sam.email, .password(hash: "hash-2"), now: .now(), audit: reset)
        #expect(try await store.staff(email: sam.email)?.passwordHash == "hash-2")

        #expect(try await store.organizerActions(event: "ev1") == [assigned, unassigned])
        #expect(try await store.accountActions() == [added, revoked, disabled, enabled, reset])
        await store.close()
    }
}
