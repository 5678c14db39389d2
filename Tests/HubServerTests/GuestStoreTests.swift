import CheckInCore
import Foundation
import HubAPI
import HubServer
import KioskTestSupport
import RosterCSV
import Testing

/// The dashboard's guest lookup, guest history, audited revoke and manual check-in, and the
/// arrivals counts: SQLite and PostgreSQL answer alike.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking) struct GuestStoreTests {
    static let olga = StaffInfo(id: "st-olga", email: "olga@example.org", name: "Olga", role: .organizer)
    static let base = StoreContractTests.base

    /// `ev1` with five guests (two in order `ORD-7`), and `ev2` with a namesake.
    static func seed(_ store: any HubStore) async throws -> EventSummary {
        let event = EventSummary(id: "ev1", name: "Conf", toleranceWindowMilliseconds: 30_000)
        try await store.createEvent(event, audit: nil)
        try await store.createEvent(EventSummary(id: "ev2", name: "Other"), audit: nil)
        func row(_ code: String, _ name: String, _ email: String, order: String = "") -> RosterRow {
            RosterRow(line: 2, code: TicketCode(stored: code), name: name, email: email, company: "", accessType: "General",
                      facts: TicketFacts(orderCode: order))
        }
        _ = try await store.importRoster(event: "ev1", rows: [
            row("ADA1", "Ada Lovelace", "ada@example.org", order: "ORD-7"),
            row("BYR2", "Lord Byron", "byron@example.org", order: "ORD-7"),
            row("GRC3", "Grace Hopper", "Grace.Hopper@Example.org"),
            row("PCT4", "100% Percent_Guy", "pct@example.org"),
            row("GONE", "Ada Gone", "gone@example.org"),
        ], replace: false, audit: nil)
        _ = try await store.importRoster(event: "ev2", rows: [row("ADA9", "Ada Elsewhere", "ada9@example.org")], replace: false, audit: nil)
        #expect(try await store.deleteGuest(event: "ev1", guestID: "GONE"))
        return event
    }

    static func ids(_ records: [GuestRecord]) -> [String] { records.map(\.guest.id) }

    @Test(arguments: StoreContractTests.kinds) func guestsAreFoundByPartOfTheNameByCodeByOrderAndByEmailInAnyCase(kind: String) async throws {
        let (store, directory) = try await StoreContractTests.makeStore(kind)
        defer { directory.remove() }
        _ = try await Self.seed(store)
        // Part of a name, any case; deleted guests and other events' guests are not found.
        #expect(Self.ids(try await store.findGuests(event: "ev1", matching: GuestQuery("ada"), limit: 10)) == ["ADA1"])
        #expect(Self.ids(try await store.findGuests(event: "ev1", matching: GuestQuery("  LOVE "), limit: 10)) == ["ADA1"])
        // A ticket code as a person types it (stations' normalization), an order code, an e-mail in another case.
        #expect(Self.ids(try await store.findGuests(event: "ev1", matching: GuestQuery("grc3"), limit: 10)) == ["GRC3"])
        #expect(Self.ids(try await store.findGuests(event: "ev1", matching: GuestQuery("ORD-7"), limit: 10)) == ["ADA1", "BYR2"])
        #expect(Self.ids(try await store.findGuests(event: "ev1", matching: GuestQuery("grace.hopper@example.ORG"), limit: 10)) == ["GRC3"])
        // LIKE's wildcards typed by a person match themselves.
        #expect(Self.ids(try await store.findGuests(event: "ev1", matching: GuestQuery("0% p"), limit: 10)) == ["PCT4"])
        #expect(try await store.findGuests(event: "ev1", matching: GuestQuery("_"), limit: 10).map(\.guest.id) == ["PCT4"])
        #expect(try await store.findGuests(event: "ev1", matching: GuestQuery("%"), limit: 10).map(\.guest.id) == ["PCT4"])
        // Bounded, by name; nothing for an empty query.
        #expect(Self.ids(try await store.findGuests(event: "ev1", matching: GuestQuery("o"), limit: 2)) == ["ADA1", "GRC3"])
        #expect(try await store.findGuests(event: "ev1", matching: GuestQuery("   "), limit: 10).isEmpty)
        #expect(try await store.findGuests(event: "ev1", matching: GuestQuery("nobody"), limit: 10).isEmpty)
        #expect(try await store.guestRecord(event: "ev1", id: "GONE") == nil)
        #expect(try await store.guestRecord(event: "ev2", id: "ADA1") == nil)
        let ada = try #require(try await store.guestRecord(event: "ev1", id: "ADA1"))
        #expect(ada.guest.facts.orderCode == "ORD-7")
        #expect(ada.status == .notArrived)
        await store.close()
    }

    @Test(arguments: StoreContractTests.kinds) func statusAndHistoryFollowEveryMovementAndRefusal(kind: String) async throws {
        let (store, directory) = try await StoreContractTests.makeStore(kind)
        defer { directory.remove() }
        let event = try await Self.seed(store)
        let uploader = StoreContractTests.uploader
        func upload(_ device: String, _ ms: Int64, _ direction: Direction = .entry) -> CheckInUpload {
            CheckInUpload(key: IdempotencyKey(deviceID: device, guestID: "ADA1", scannedAt: Timestamp(milliseconds: Self.base + ms)),
                          station: "Door \(device)", operatorName: "Op \(device)", source: .camera, direction: direction)
        }
        let now = Timestamp(milliseconds: Self.base + 3_600_000)
        // Admitted, then refused elsewhere (single entry), then an exit.
        _ = try await store.ingest(event: event, items: [upload("a", 0), upload("b", 60_000), upload("a", 120_000, .exit)], uploader: uploader, now: now)
        var ada = try #require(try await store.guestRecord(event: "ev1", id: "ADA1"))
        #expect(ada.status == .checkedIn)
        #expect(ada.entries == 1)
        // An attempt without a final answer for this id (before it was on a station's roster) shows too.
        let stranger = CheckInUpload(key: IdempotencyKey(deviceID: "c", guestID: "NEWBIE", scannedAt: Timestamp(milliseconds: Self.base)),
                                     station: "Door c", operatorName: "Op c", source: .typed)
        _ = try await store.ingest(event: event, items: [stranger], uploader: uploader, now: now)
        let history = try await store.guestHistory(event: "ev1", guestID: "ADA1", limit: 10)
        #expect(history.map(\.decision) == ["admitted", "already_checked_in", "admitted"])
        #expect(history.map(\.direction) == ["exit", "entry", "entry"])
        #expect(history.map(\.station) == ["Door a", "Door b", "Door a"])
        #expect(history.map(\.undone) == [false, false, false])
        #expect(try await store.guestHistory(event: "ev1", guestID: "NEWBIE", limit: 10).map(\.decision) == ["unknown_code"])
        #expect(try await store.guestHistory(event: "ev1", guestID: "ADA1", limit: 1).count == 1)
        // Undoing the exit puts her inside again; the history keeps the exit, marked undone.
        _ = try await store.undo(event: event, items: [
            UndoUpload(key: upload("a", 120_000, .exit).key, undoneAt: Timestamp(milliseconds: Self.base + 130_000), station: "Door a",
                       operatorName: "Op a", reason: "mis-scan"),
        ], caller: uploader, now: now)
        ada = try #require(try await store.guestRecord(event: "ev1", id: "ADA1"))
        #expect(ada.status == .inside)
        #expect(try await store.guestHistory(event: "ev1", guestID: "ADA1", limit: 10).map(\.undone) == [true, false, false])
        // A revoked ticket says so in the lookup, whatever happened before.
        #expect(try await store.setRevoked(event: "ev1", guestID: "ADA1", revoked: true, action: nil))
        #expect(try await store.findGuests(event: "ev1", matching: GuestQuery("ada"), limit: 5).map(\.status) == [.revoked])
        await store.close()
    }

    @Test(arguments: StoreContractTests.kinds) func revokingFromTheDashboardReachesStationsAndIsAuditedOnlyWhenItChangedSomething(kind: String) async throws {
        let (store, directory) = try await StoreContractTests.makeStore(kind)
        defer { directory.remove() }
        _ = try await Self.seed(store)
        let cursor = try await store.rosterPage(event: "ev1", after: 0, limit: 1_000, now: .now()).cursor
        let at = Timestamp(milliseconds: Self.base)
        let revoke = OrganizerAction(eventID: "ev1", actor: Self.olga, kind: .guestRevoked, subject: "BYR2", detail: "ticket shared online", at: at)
        #expect(try await store.setRevoked(event: "ev1", guestID: "BYR2", revoked: true, action: revoke))
        // Stations learn it with the next roster change.
        let page = try await store.rosterPage(event: "ev1", after: cursor, limit: 1_000, now: .now())
        #expect(page.guests.map(\.id) == ["BYR2"])
        #expect(page.guests.first?.revoked == true)
        let restore = OrganizerAction(eventID: "ev1", actor: Self.olga, kind: .guestRestored, subject: "BYR2", at: at.adding(milliseconds: 1))
        #expect(try await store.setRevoked(event: "ev1", guestID: "BYR2", revoked: false, action: restore))
        // Unknown, deleted or another event's guest: nothing changes, nothing is logged.
        let stray = OrganizerAction(eventID: "ev1", actor: Self.olga, kind: .guestRevoked, subject: "GONE", detail: "x", at: at)
        #expect(try await !store.setRevoked(event: "ev1", guestID: "GONE", revoked: true, action: stray))
        #expect(try await !store.setRevoked(event: "ev1", guestID: "ADA9", revoked: true, action: stray))
        #expect(try await store.organizerActions(event: "ev1") == [revoke, restore])
        // The guest page lists them newest first, bounded, and only that guest's.
        #expect(try await store.guestActions(event: "ev1", guestID: "BYR2", limit: 10) == [restore, revoke])
        #expect(try await store.guestActions(event: "ev1", guestID: "BYR2", limit: 1) == [restore])
        #expect(try await store.guestActions(event: "ev1", guestID: "ADA1", limit: 10).isEmpty)
        #expect(try await store.guestRecord(event: "ev1", id: "BYR2")?.guest.revoked == false)
        await store.close()
    }

    @Test(arguments: StoreContractTests.kinds) func aManualCheckInIsDecidedByTheRulesAndAuditedWithItsAnswer(kind: String) async throws {
        let (store, directory) = try await StoreContractTests.makeStore(kind)
        defer { directory.remove() }
        let event = try await Self.seed(store)
        let uploader = Uploader(staffID: Self.olga.id, role: .organizer, deviceID: nil)
        func checkIn(_ guest: String, _ ms: Int64) async throws -> CheckInResult {
            let now = Timestamp(milliseconds: Self.base + ms)
            return try await store.manualCheckIn(event: event, CheckInUpload(
                key: IdempotencyKey(deviceID: "dashboard:st-olga", guestID: guest, scannedAt: now), station: "Dashboard",
                operatorName: "Olga", source: .search), uploader: uploader, now: now) { result in
                OrganizerAction(eventID: "ev1", actor: Self.olga, kind: .manualCheckIn, subject: guest, detail: result.decision.rawValue, at: now)
            }
        }
        #expect(try await checkIn("GRC3", 0).decision == .admitted)
        // A minute later: single entry, so the rules refuse it, naming the first.
        let again = try await checkIn("GRC3", 60_000)
        #expect(again.decision == .alreadyCheckedIn)
        #expect(again.previous?.station == "Dashboard")
        #expect(again.previous?.by == "Olga")
        _ = try await store.setRevoked(event: "ev1", guestID: "PCT4", revoked: true, action: nil)
        #expect(try await checkIn("PCT4", 0).decision == .revoked)
        #expect(try await store.organizerActions(event: "ev1").map(\.detail) == ["admitted", "already_checked_in", "revoked"])
        #expect(try await store.stats(event: "ev1").checkedIn == 1)
        #expect(try await store.guestRecord(event: "ev1", id: "GRC3")?.status == .inside)
        await store.close()
    }

    @Test(arguments: StoreContractTests.kinds) func arrivalsCountAcceptedEntriesNotUndonePerIntervalInTheDatabase(kind: String) async throws {
        let (store, directory) = try await StoreContractTests.makeStore(kind)
        defer { directory.remove() }
        let event = try await Self.seed(store)
        let uploader = StoreContractTests.uploader
        func item(_ guest: String, _ ms: Int64, _ direction: Direction = .entry, device: String = "a") -> CheckInUpload {
            CheckInUpload(key: IdempotencyKey(deviceID: device, guestID: guest, scannedAt: Timestamp(milliseconds: Self.base + ms)),
                          station: "Door", operatorName: "Op", source: .camera, direction: direction)
        }
        let minute: Int64 = 60_000
        _ = try await store.ingest(event: event, items: [
            item("ADA1", 1 * minute), item("BYR2", 4 * minute), item("GRC3", 16 * minute),
            item("ADA1", 20 * minute, .exit),  // exits are no arrivals
            item("ADA1", 21 * minute, device: "b"),  // refused (single entry): no arrival
            item("PCT4", 50 * minute),
        ], uploader: uploader, now: Timestamp(milliseconds: Self.base + 3_600_000))
        _ = try await store.undo(event: event, items: [
            UndoUpload(key: item("PCT4", 50 * minute).key, undoneAt: Timestamp(milliseconds: Self.base + 51 * minute), station: "Door",
                       operatorName: "Op", reason: nil),
        ], caller: uploader, now: Timestamp(milliseconds: Self.base + 3_600_000))
        let from = Timestamp(milliseconds: Self.base)
        let counts = try await store.arrivals(event: "ev1", from: from, until: from.adding(milliseconds: 60 * minute), bucketMilliseconds: 15 * minute)
        #expect(counts == [ArrivalCount(bucket: 0, entries: 2), ArrivalCount(bucket: 1, entries: 1)])
        // The span bounds the rows read.
        #expect(try await store.arrivals(event: "ev1", from: from.adding(milliseconds: 5 * minute), until: from.adding(milliseconds: 16 * minute),
                                         bucketMilliseconds: 5 * minute) == [])
        #expect(try await store.arrivals(event: "ev2", from: from, until: from.adding(milliseconds: 60 * minute), bucketMilliseconds: 15 * minute) == [])
        await store.close()
    }
}
