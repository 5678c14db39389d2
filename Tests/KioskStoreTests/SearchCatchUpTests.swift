import CheckInCore
import Foundation
import GRDB
import KioskTestSupport
import RosterCSV
import Testing
@testable import KioskStore

/// Large bulk writes store their guests first and index them for search afterwards
/// (0004_search_catch_up.sql): search must find every guest at every moment in between.
@Suite("Search index catch-up")
struct SearchCatchUpTests {
    /// More guests than one transaction indexes inline, so they are staged.
    static let bulkCount = RosterStore.inlineSearchIndexLimit + 500

    static func bulkGuests() -> [Guest] {
        (0..<bulkCount).map {
            Guest(id: "bulk-\($0)", code: TicketCode(stored: "BULK\($0)"), name: $0 == 7 ? "Zoë Ångström" : "Bulk Guest n\($0)x",
                  email: "bulk\($0)@example.org", company: "Bulk Co", accessTypeID: "general")
        }
    }

    /// A station with the small roster (indexed inline) and the bulk guests staged, not indexed.
    func stationWithStagedGuests() async throws -> (TemporaryDirectory, KioskDatabase) {
        let directory = TemporaryDirectory("search-catch-up")
        let database = try KioskDatabase.open(dataDirectory: directory.url, backgroundSearchIndex: false)
        _ = try await database.roster.importRoster(try RosterCSVParser.parse(Data(Station.roster.utf8)))
        try await database.roster.saveGuests(Self.bulkGuests())
        return (directory, database)
    }

    func indexedRows(_ database: KioskDatabase) throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM guest_search") ?? 0 }
    }

    func expectEveryGuestFound(_ database: KioskDatabase, _ moment: String) throws {
        #expect(try database.searchIndex.search("angstrom zoe").map(\.guest.code.value) == ["BULK7"], "\(moment)")
        #expect(try database.searchIndex.search("n2499x").map(\.guest.code.value) == ["BULK2499"], "\(moment)")
        #expect(try database.searchIndex.search("bulk2000@").map(\.guest.code.value) == ["BULK2000"], "\(moment)")
        #expect(try database.searchIndex.search("jose muller").map(\.guest.code.value) == ["ABC1"], "\(moment)")
        #expect(try database.searchIndex.search("小明").map(\.guest.code.value) == ["ABC3"], "\(moment)")
        #expect(try database.searchIndex.search("bulk co", limit: 30).count == 30, "\(moment)")
        #expect(try database.searchIndex.search("zzzz").isEmpty, "\(moment)")
    }

    @Test("guests of a large bulk write are found by search before, during and after their index is built")
    func foundAtEveryMoment() async throws {
        let (directory, database) = try await stationWithStagedGuests()
        defer { directory.remove() }
        #expect(try database.searchIndex.pendingSearchCount() == Self.bulkCount)
        #expect(try indexedRows(database) == 4)
        try expectEveryGuestFound(database, "all staged")

        let remaining = try await database.searchIndex.indexPendingSearch(batchSize: 1_000)
        #expect(remaining == Self.bulkCount - 1_000)
        try expectEveryGuestFound(database, "half indexed")

        try await database.searchIndex.finishSearchIndex()
        #expect(try database.searchIndex.pendingSearchCount() == 0)
        #expect(try indexedRows(database) == Self.bulkCount + 4)
        try expectEveryGuestFound(database, "all indexed")
        try await database.write { db in try db.execute(sql: "INSERT INTO guest_search(guest_search) VALUES ('integrity-check')") }
    }

    @Test("a staged guest renamed or deleted before being indexed is found under the new name only, or not at all")
    func changedWhileStaged() async throws {
        let (directory, database) = try await stationWithStagedGuests()
        defer { directory.remove() }
        var renamed = Self.bulkGuests()[10]
        renamed.name = "Renée Zellweger"
        try await database.roster.saveGuest(renamed)
        try await database.write { db in try db.execute(sql: "DELETE FROM guests WHERE id = 'bulk-11'") }

        for moment in ["staged", "indexed"] {
            #expect(try database.searchIndex.search("renee zell").map(\.guest.id) == ["bulk-10"], "\(moment)")
            #expect(try database.searchIndex.search("n10x").isEmpty, "\(moment)")
            #expect(try database.searchIndex.search("n11x").isEmpty, "\(moment)")
            try await database.searchIndex.finishSearchIndex()
        }
        #expect(try indexedRows(database) == Self.bulkCount - 1 + 4)
        try await database.write { db in try db.execute(sql: "INSERT INTO guest_search(guest_search) VALUES ('integrity-check')") }
    }

    @Test("a bulk write over staged guests stages them again with their new text")
    func rewrittenWhileStaged() async throws {
        let (directory, database) = try await stationWithStagedGuests()
        defer { directory.remove() }
        try await database.searchIndex.indexPendingSearch(batchSize: 1_000)
        // Every guest again, half of them renamed: indexed ones leave the index, all are staged.
        let again = Self.bulkGuests().map { guest in
            var guest = guest
            if guest.id.hasSuffix("0") { guest.name = "Changed \(guest.id)z" }
            return guest
        }
        try await database.roster.saveGuests(again)
        #expect(try database.searchIndex.pendingSearchCount() == Self.bulkCount)
        #expect(try database.searchIndex.search("changed bulk-20z").map(\.guest.id) == ["bulk-20"])
        #expect(try database.searchIndex.search("n20x").isEmpty)
        try await database.searchIndex.finishSearchIndex()
        #expect(try database.searchIndex.search("changed bulk-2490z").map(\.guest.id) == ["bulk-2490"])
        #expect(try database.searchIndex.search("n2491x").map(\.guest.id) == ["bulk-2491"])
        #expect(try indexedRows(database) == Self.bulkCount + 4)
        try await database.write { db in try db.execute(sql: "INSERT INTO guest_search(guest_search) VALUES ('integrity-check')") }
    }

    @Test("a catch-up stopped after its last batch but before merging is finished at the next start, merging turned back on")
    func resumedAfterStop() async throws {
        let (directory, database) = try await stationWithStagedGuests()
        defer { directory.remove() }
        try await database.searchIndex.setSearchMerging(SearchIndex.postponedMerging)
        try await database.searchIndex.indexPendingSearch(batchSize: 1_000)
        try await database.searchIndex.indexPendingSearch(batchSize: 10_000)
        #expect(try database.searchIndex.pendingSearchCount() == 0)
        // The process stops here; the next one opens the database again and starts the catch-up.
        let reopened = try KioskDatabase.open(dataDirectory: directory.url)
        #expect(try reopened.searchIndex.searchMergingPostponed())
        reopened.searchIndex.indexInBackground()
        for _ in 0..<600 where try reopened.searchIndex.searchMergingPostponed() {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try !reopened.searchIndex.searchMergingPostponed())
        #expect(try reopened.read { db in try Int.fetchOne(db, sql: "SELECT v FROM guest_search_config WHERE k = 'crisismerge'") } == 16)
        #expect(try await reopened.searchIndex.mergeSearchSegments() == false, "the index is one segment again")
        try expectEveryGuestFound(reopened, "after the resumed catch-up")
        try await reopened.write { db in try db.execute(sql: "INSERT INTO guest_search(guest_search) VALUES ('integrity-check')") }
    }

    @Test("with background indexing on, a large bulk write ends up fully indexed without anyone asking")
    func backgroundCatchUp() async throws {
        let directory = TemporaryDirectory("search-catch-up-background")
        defer { directory.remove() }
        let database = try KioskDatabase.open(dataDirectory: directory.url)
        try await database.roster.saveGuests(Self.bulkGuests())
        for _ in 0..<600 where try database.searchIndex.pendingSearchCount() > 0 {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try database.searchIndex.pendingSearchCount() == 0)
        #expect(try indexedRows(database) == Self.bulkCount)
    }
}
