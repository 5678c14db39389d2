import CheckInCore
import Foundation
import GRDB
import KioskStore
import KioskTestSupport
import Testing

/// The store side of sync: roster pages, cursor, outbox outcomes.
@Suite struct SyncStoreTests {
    func guest(_ index: Int, name: String? = nil, code: String? = nil) -> Guest {
        Guest(id: "g\(index)", code: TicketCode(stored: code ?? "C\(index)"), name: name ?? "Guest \(index)", accessTypeID: "general")
    }

    func open() throws -> (TemporaryDirectory, KioskDatabase) {
        let directory = TemporaryDirectory("sync-store")
        return (directory, try KioskDatabase.open(dataDirectory: directory.url))
    }

    @Test func replayedPagesChangeNothingAndLaterPagesWin() async throws {
        let (directory, database) = try open()
        defer { directory.remove() }
        try await database.selectSyncEvent(id: "ev", name: "Event", toleranceWindowMilliseconds: 45_000)
        let first = RosterDelta(accessTypes: [AccessType(id: "general", name: "General")], guests: (0..<10).map { guest($0) }, nextCursor: "10")
        try await database.applyRoster([first], eventID: "ev", complete: false)
        try await database.applyRoster([first], eventID: "ev", complete: false)
        #expect(try database.status().guests == 10)
        #expect(try database.syncEvent()?.cursor == "10")
        #expect(try database.syncEvent()?.complete == false)
        // The code C3 moves to a new guest, g4 is renamed, g5 is deleted.
        let second = RosterDelta(guests: [guest(4, name: "Renamed"), guest(99, code: "C3")], deletedGuestIDs: ["g5"], nextCursor: "14")
        try await database.applyRoster([second], eventID: "ev", complete: true)
        // Stored under the station's own ids of the hub's guests (HubGuestIDs).
        #expect(try database.roster.guest(code: "C3")?.guest.id == database.stationGuestID(hubID: "g99"))
        #expect(try database.roster.guest(id: database.stationGuestID(hubID: "g4"))?.guest.name == "Renamed")
        #expect(try database.roster.guest(id: database.stationGuestID(hubID: "g5")) == nil)
        let state = try #require(try database.syncEvent())
        #expect(state.eventID == "ev" && state.eventName == "Event" && state.cursor == "14" && state.complete)
        #expect(try database.status().lastPull != nil)
        let searchRows = try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM guest_search") }
        #expect(searchRows == 9)
    }

    @Test func aFullDownloadKilledMidwayAndResumedFindsEveryGuestBySearch() async throws {
        let directory = TemporaryDirectory("sync-store-resume")
        defer { directory.remove() }
        let names = ["José Müller", "Ødegård Nilsen", "王小明", "Anna-Lena Kowalczyk", "Chris O'Brien", "Zoë Smith"]
        func page(_ range: Range<Int>, cursor: Int) -> RosterDelta {
            RosterDelta(accessTypes: [AccessType(id: "general", name: "General")],
                        guests: range.map { guest($0, name: "\(names[$0 % names.count]) id\($0)z") }, nextCursor: String(cursor))
        }
        do {
            let database = try KioskDatabase.open(dataDirectory: directory.url)
            try await database.selectSyncEvent(id: "ev", name: "Event", toleranceWindowMilliseconds: nil)
            try await database.applyRoster([page(0..<300, cursor: 300)], eventID: "ev", complete: false)
            try await database.applyRoster([page(300..<600, cursor: 600)], eventID: "ev", complete: false)
            #expect(try database.searchIndex.search("muller id6z").map(\.guest.id) == [database.stationGuestID(hubID: "g6")],
                    "guests already stored are found mid-way")
        } // killed: the next process opens the database again and resumes from the stored cursor
        let database = try KioskDatabase.open(dataDirectory: directory.url)
        #expect(try database.syncEvent()?.cursor == "600")
        // The hub resends a page (replay) and a guest renamed since, then the rest.
        try await database.applyRoster([page(300..<600, cursor: 600), RosterDelta(guests: [guest(5, name: "Renamed Person")], nextCursor: "601")],
                                       eventID: "ev", complete: false)
        try await database.applyRoster([page(600..<1_000, cursor: 1_000)], eventID: "ev", complete: true)
        for index in 0..<1_000 where index != 5 {
            let name = "\(names[index % names.count]) id\(index)z"
            #expect(try database.searchIndex.search(name).map(\.guest.id) == [database.stationGuestID(hubID: "g\(index)")], "\(name)")
        }
        #expect(try database.searchIndex.search("renamed person").map(\.guest.id) == [database.stationGuestID(hubID: "g5")])
        #expect(try database.searchIndex.search("id5z").isEmpty, "the old name is gone from the index")
        #expect(try database.searchIndex.search("小明", limit: 1_000).count == 1_000 / names.count + 1)
        let searchRows = try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM guest_search") }
        #expect(searchRows == 1_000)
        #expect(try database.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
        try await database.write { db in try db.execute(sql: "INSERT INTO guest_search(guest_search) VALUES ('integrity-check')") }
    }

    @Test func aCodeThatMovesBetweenGuestsWithinOneFirstPageGoesToTheLaterGuest() async throws {
        let (directory, database) = try open()
        defer { directory.remove() }
        try await database.selectSyncEvent(id: "ev", name: "Event", toleranceWindowMilliseconds: nil)
        try await database.applyRoster([RosterDelta(accessTypes: [AccessType(id: "general", name: "General")],
                                                    guests: [guest(1, code: "SAME"), guest(2, name: "Later Holder", code: "SAME")], nextCursor: "2")],
                                       eventID: "ev", complete: true)
        // Stored under the station's own id of the hub's g2 (HubGuestIDs).
        let g2 = database.stationGuestID(hubID: "g2")
        #expect(try database.roster.guest(code: "SAME")?.guest.id == g2)
        #expect(try database.status().guests == 1)
        #expect(try database.searchIndex.search("later holder").map(\.guest.id) == [g2])
        #expect(try database.searchIndex.search("guest 1").isEmpty)
    }

    @Test func pagesForAnotherEventThanTheSelectedOneAreDropped() async throws {
        let (directory, database) = try open()
        defer { directory.remove() }
        try await database.selectSyncEvent(id: "ev", name: "Event", toleranceWindowMilliseconds: nil)
        try await database.applyRoster([RosterDelta(guests: [guest(1)], nextCursor: "1")], eventID: "other", complete: true)
        #expect(try database.status().guests == 0)
    }

    @Test func switchingEventsClearsTheRosterButKeepsPendingCheckIns() async throws {
        let (directory, database) = try open()
        defer { directory.remove() }
        try await database.selectSyncEvent(id: "ev", name: "Event", toleranceWindowMilliseconds: nil)
        try await database.applyRoster([RosterDelta(accessTypes: [AccessType(id: "general", name: "General")],
                                                    guests: (0..<5).map { guest($0) }, nextCursor: "5")], eventID: "ev", complete: true)
        let result = try await database.desk.checkIn(CheckInRequest(rawCode: "C2", source: .typed))
        #expect(result.decision == .admitted)
        let cleared = try await database.selectSyncEvent(id: "ev2", name: "Other", toleranceWindowMilliseconds: nil)
        #expect(cleared)
        #expect(try database.status().guests == 1)
        #expect(try database.outbox.pendingCount() == 1)
        #expect(try database.syncEvent()?.cursor == nil)
    }

    @Test func outcomesSettleEntriesAndRetryKeepsThemPending() async throws {
        let (directory, database) = try open()
        defer { directory.remove() }
        try await database.selectSyncEvent(id: "ev", name: "Event", toleranceWindowMilliseconds: nil)
        try await database.applyRoster([RosterDelta(accessTypes: [AccessType(id: "general", name: "General")],
                                                    guests: (0..<5).map { guest($0) }, nextCursor: "5")], eventID: "ev", complete: true)
        for index in 0..<4 {
            _ = try await database.desk.checkIn(CheckInRequest(rawCode: "C\(index)", source: .typed, at: Timestamp(milliseconds: 1_000 + Int64(index))))
        }
        let entries = try database.outbox.pendingOutbox()
        #expect(entries.map(\.sortAt.milliseconds) == [1_000, 1_001, 1_002, 1_003])
        let prior = PriorCheckIn(by: "Sam", station: "Door 1", deviceID: "d1", at: Timestamp(milliseconds: 990))
        try await database.outbox.applyOutboxOutcomes([
            OutboxResult(id: entries[0].id, outcome: .accepted), OutboxResult(id: entries[1].id, outcome: .duplicate(of: prior)),
            OutboxResult(id: entries[2].id, outcome: .rejected(reason: "already checked in\u{1B}[31m", previous: prior)), OutboxResult(id: entries[3].id, outcome: .retry(reason: "timed out")),
        ])
        #expect(try database.outbox.pendingCount() == 1)
        let rejected = try database.outbox.rejectedOutbox()
        #expect(rejected.count == 1)
        #expect(rejected.first?.lastError?.contains("\u{1B}") == false, "hub text is sanitized")
        #expect(try database.hubStatus(idempotencyKey: entries[1].ref)?.status == "duplicate")
        #expect(try database.hubStatus(idempotencyKey: entries[0].ref)?.status == "accepted")
        #expect(try database.outbox.pendingOutbox().first?.attempts == 1)
        // An outcome for an entry already settled changes nothing.
        try await database.outbox.applyOutboxOutcomes([OutboxResult(id: entries[1].id, outcome: .rejected(reason: "late", previous: nil))])
        #expect(try database.hubStatus(idempotencyKey: entries[1].ref)?.status == "duplicate")
        #expect(try await database.outbox.discardPending(operatorName: "Alex") == 1)
        #expect(try database.outbox.pendingCount() == 0)
    }
}
