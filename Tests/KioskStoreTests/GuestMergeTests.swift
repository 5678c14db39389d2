import CheckInCore
import Foundation
import GRDB
import KioskTestSupport
import Testing
@testable import KioskStore

/// A walk-in merged into a registration at the hub, as a station applies it from a roster page:
/// its check-ins and queued changes move to the registration in one transaction, nothing is lost,
/// and the walk-in itself is never uploaded again.
@Suite("A walk-in merged at the hub")
struct GuestMergeTests {
    let t0 = Timestamp(milliseconds: 1_790_000_000_000)
    static let registration = Guest(id: "reg-1", code: TicketCode(stored: "REG1"), name: "Ada Lovelace", email: "ada@example.org",
                                    accessTypeID: "general")

    /// A station synced with the event, whose door then added Ada as a walk-in while offline.
    /// Roster pages name guests as the hub does: `walkIn` is the hub's id of the walk-in (the id
    /// the station gave it), `reg` the station's own id of the registration (``HubGuestIDs``).
    func stationWithQueuedWalkIn() async throws -> (TemporaryDirectory, KioskDatabase, walkIn: String, reg: String) {
        let directory = TemporaryDirectory("guest-merge")
        let database = try KioskDatabase.open(dataDirectory: directory.url)
        try await database.selectSyncEvent(id: "ev", name: "Event", toleranceWindowMilliseconds: 30_000)
        try await database.applyRoster([RosterDelta(accessTypes: [AccessType(id: "general", name: "General")], guests: [Self.registration],
                                                    nextCursor: "2")], eventID: "ev", complete: true)
        let added = try await database.desk.addWalkIn(WalkInRequest(name: "Ada L.", email: "ada@example.org", accessTypeID: "general",
                                                                    operatorName: "Alex", station: "Door A", at: t0))
        let stationID = try #require(added.guest?.guest.id)
        let walkIn = try #require(try database.roster.hubID(ofGuest: stationID))
        #expect(try database.outbox.pendingOutbox().map(\.kind) == [.walkIn, .checkIn])
        return (directory, database, walkIn, database.stationGuestID(hubID: "reg-1"))
    }

    func checkIns(_ database: KioskDatabase) throws -> [String] {
        try database.read { db in
            try String.fetchAll(db, sql: "SELECT idempotency_key || ' ' || origin FROM check_ins ORDER BY scanned_at, idempotency_key")
        }
    }

    @Test("queued check-ins upload for the registration, the queued walk-in is settled, and the registration counts as checked in")
    func queuedChangesMove() async throws {
        let (directory, database, walkIn, reg) = try await stationWithQueuedWalkIn()
        defer { directory.remove() }
        let device = database.deviceID
        try await database.applyRoster([RosterDelta(deletedGuestIDs: [walkIn], merges: [GuestMerge(guestID: walkIn, into: "reg-1")], nextCursor: "9")],
                                       eventID: "ev", complete: false)
        #expect(try database.roster.guest(id: database.stationGuestID(hubID: walkIn)) == nil, "the walk-in left the roster")
        #expect(try checkIns(database) == ["\(device)/\(reg)/\(t0.milliseconds) local"])
        let pending = try database.outbox.pendingOutbox()
        #expect(pending.map(\.kind) == [.checkIn], "the walk-in itself is never uploaded again: the hub has it")
        #expect(pending.map(\.ref) == ["\(device)/\(reg)/\(t0.milliseconds)"])
        guard case .success(.checkIn(let queued)) = pending.first?.change else {
            Issue.record("no queued check-in")
            return
        }
        #expect(queued.guestID == reg)
        // Uploaded under the hub's id of the registration.
        #expect(try database.read { db in try KioskDatabase.hubTerms(db, .checkIn(queued)) }.guestID == "reg-1")
        // At the door, Ada's ticket now says she is in.
        let again = try await database.desk.checkIn(CheckInRequest(rawCode: "REG1", source: .typed, operatorName: "Alex", station: "Door A",
                                                                   at: t0.adding(milliseconds: 600_000)))
        #expect(again.decision.kind == .alreadyCheckedIn)
    }

    @Test("the hub's copy of a moved check-in arriving with the merge leaves one row, this station's own")
    func hubCopyGivesWay() async throws {
        let (directory, database, walkIn, reg) = try await stationWithQueuedWalkIn()
        defer { directory.remove() }
        let device = database.deviceID
        let moved = CheckIn(key: IdempotencyKey(deviceID: device, guestID: "reg-1", scannedAt: t0), station: "Door A", operatorName: "Alex",
                            source: .typed)
        let other = CheckIn(key: IdempotencyKey(deviceID: "dev-b", guestID: walkIn, scannedAt: t0.adding(milliseconds: -5_000)), station: "Door B",
                            operatorName: "Bea", source: .typed)
        // One pull: a page from before the merge (another door's check-in of the walk-in), then the merge's.
        try await database.applyRoster([
            RosterDelta(checkIns: [other], nextCursor: "5"),
            RosterDelta(deletedGuestIDs: [walkIn], checkIns: [moved], merges: [GuestMerge(guestID: walkIn, into: "reg-1")], nextCursor: "9"),
        ], eventID: "ev", complete: false)
        #expect(try checkIns(database) == [
            "dev-b/\(reg)/\(t0.milliseconds - 5_000) hub", "\(device)/\(reg)/\(t0.milliseconds) local",
        ])
        #expect(try database.roster.guest(id: database.stationGuestID(hubID: walkIn)) == nil)
    }

    @Test("a check-in the hub held as unknown before the merge arrived goes again at once, under the registration")
    func heldCheckInIsReleased() async throws {
        let (directory, database, walkIn, reg) = try await stationWithQueuedWalkIn()
        defer { directory.remove() }
        // The walk-in's upload was answered but the answer lost; its check-in came back unknown
        // (pushed after the merge, before this pull).
        let queued = try database.outbox.pendingOutbox()
        try await database.outbox.applyOutboxOutcomes([OutboxResult(id: queued[1].id, outcome: .unknownCode(reason: "unknown guest"))])
        #expect(try database.outbox.pendingOutbox().map(\.hold) == [nil, .unknownCode])
        try await database.applyRoster([RosterDelta(deletedGuestIDs: [walkIn], merges: [GuestMerge(guestID: walkIn, into: "reg-1")], nextCursor: "9")],
                                       eventID: "ev", complete: false)
        let pending = try database.outbox.pendingOutbox()
        #expect(pending.map(\.hold) == [nil])
        #expect(pending.map(\.ref) == ["\(database.deviceID)/\(reg)/\(t0.milliseconds)"])
        let answers = try database.read { db in try Int.fetchOne(db, sql: "SELECT unknown_answers FROM outbox WHERE state = 'pending'") }
        #expect(answers == 0, "the registration's key starts with a clean count")
    }

    @Test("a merge of a walk-in this station never had changes nothing")
    func unknownWalkIn() async throws {
        let (directory, database, walkIn, _) = try await stationWithQueuedWalkIn()
        defer { directory.remove() }
        try await database.applyRoster([RosterDelta(merges: [GuestMerge(guestID: "someone-else", into: "reg-1")], nextCursor: "9")],
                                       eventID: "ev", complete: false)
        #expect(try database.roster.guest(id: database.stationGuestID(hubID: walkIn)) != nil)
        #expect(try database.outbox.pendingOutbox().map(\.kind) == [.walkIn, .checkIn])
    }
}
