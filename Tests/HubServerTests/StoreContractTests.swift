import CheckInCore
import Foundation
import HubAPI
import HubServer
import KioskTestSupport
import Logging
import RosterCSV
import Synchronization
import Testing

/// The storage contract: the memory store, SQLite and PostgreSQL must answer alike.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking) struct StoreContractTests {
    /// Every contract test runs on every store.
    static let kinds = ["memory", "sqlite", "postgres"]
    /// The stores whose database a test can reach by its `--db` URL (raw SQL, another process).
    static let databaseKinds = ["sqlite", "postgres"]

    static func makeStore(_ kind: String) async throws -> (any HubStore, TemporaryDirectory) {
        let (store, directory, _) = try await makeStoreAt(kind)
        return (store, directory)
    }

    /// A migrated store, and the `--db` URL of its database (for raw SQL in tests).
    static func makeStoreAt(_ kind: String) async throws -> (store: any HubStore, directory: TemporaryDirectory, url: String) {
        let directory = TemporaryDirectory("hub-store")
        let url = switch kind {
        case "memory": "memory:"
        case "sqlite": "sqlite:" + directory.appending("hub.db").path
        default: try PostgresCluster.shared.get().createDatabase()
        }
        let store = try HubDatabase.open(url, logger: Logger(label: "test"))
        _ = try await store.migrate()
        return (store, directory, url)
    }

    static func seed(_ store: any HubStore, guests: Int = 3, reentry: Bool = false) async throws -> EventSummary {
        let event = EventSummary(id: "ev1", name: "Conf", toleranceWindowMilliseconds: 30_000)
        try await store.createEvent(event, audit: nil)
        try await store.upsertAccessType(event: "ev1", AccessType(id: "general", name: "General", reentry: false), audit: nil)
        try await store.upsertAccessType(event: "ev1", AccessType(id: "staff-pass", name: "Staff pass", reentry: true), audit: nil)
        let rows = (1...guests).map { i in
            RosterRow(line: i + 1, code: TicketCode(stored: "G\(i)"), name: "Guest \(i)", email: "g\(i)@example.com", company: "",
                      accessType: i == guests && reentry ? "Staff pass" : "General")
        }
        _ = try await store.importRoster(event: "ev1", rows: rows, replace: false, audit: nil)
        return event
    }

    /// A staff member's upload; contract tests name the device freely (the routes check it).
    static let uploader = Uploader(staffID: "st_test", role: .organizer, deviceID: nil)

    /// Scan times in these tests are milliseconds after this plausible instant (2025-10-09).
    static let base: Int64 = 1_760_000_000_000

    static func upload(_ device: String, _ guest: String, _ ms: Int64, direction: Direction = .entry) -> CheckInUpload {
        CheckInUpload(key: IdempotencyKey(deviceID: device, guestID: guest, scannedAt: Timestamp(milliseconds: base + ms)),
                      station: "Door \(device)", operatorName: "Op \(device)", source: .camera, direction: direction)
    }

    @Test(arguments: kinds) func migrationsRunOnceAndRecordTheSchema(kind: String) async throws {
        let (store, directory) = try await Self.makeStore(kind)
        defer { directory.remove() }
        #expect(try await store.migrate().isEmpty)
        #expect(try await store.schemaVersion() == HubMigration.sqlite.last?.name)
        #expect(HubMigration.sqlite.map(\.name) == HubMigration.postgres.map(\.name))
        await store.close()
    }

    @Test(arguments: kinds) func checkInRulesAreAppliedInBatchOrder(kind: String) async throws {
        let (store, directory) = try await Self.makeStore(kind)
        defer { directory.remove() }
        let event = try await Self.seed(store, reentry: true)
        let now = Timestamp.now()
        let results = try await store.ingest(event: event, items: [
            Self.upload("a", "G1", 1_000_000),           // admitted
            Self.upload("b", "G1", 1_010_000),           // other device within 30 s: duplicate
            Self.upload("c", "G1", 2_000_000),           // beyond the window, single entry: rejected
            Self.upload("a", "G3", 1_000_000),           // re-entry type
            Self.upload("a", "G3", 2_000_000),           // beyond the window, re-entry: admitted
            Self.upload("a", "NOPE", 1_000_000),         // unknown
        ], uploader: Self.uploader, now: now)
        #expect(results.map(\.status) == [.accepted, .duplicate, .rejected, .accepted, .accepted, .rejected])
        #expect(results.map(\.decision) == [.admitted, .duplicate, .alreadyCheckedIn, .admitted, .admitted, .unknownCode])
        #expect(results[1].previous?.deviceID == "a")
        #expect(results[1].previous?.by == "Op a")
        #expect(results[2].previous?.at == Timestamp(milliseconds: Self.base + 1_000_000))

        // Replays get the same answers and add nothing.
        for _ in 0..<5 {
            let again = try await store.ingest(event: event, items: [Self.upload("b", "G1", 1_010_000), Self.upload("a", "G1", 1_000_000)], uploader: Self.uploader, now: now)
            #expect(again.map(\.status) == [.duplicate, .accepted])
        }
        let stats = try await store.stats(event: "ev1")
        #expect(stats.checkedIn == 2)
        #expect(stats.duplicates == 1)
        #expect(stats.conflicts == 1)
        #expect(try await store.conflicts(event: "ev1").count == 1)
        await store.close()
    }

    @Test(arguments: kinds) func ticketsTheImportSaysAreBlockedAreRefusedAndUnblockedByTheNextImport(kind: String) async throws {
        let (store, directory) = try await Self.makeStore(kind)
        defer { directory.remove() }
        let event = try await Self.seed(store, guests: 2)
        func row(_ code: String, revoked: Bool) -> RosterRow {  // as seeded, but for the flag
            let i = code.dropFirst()
            return RosterRow(line: 2, code: TicketCode(stored: code), name: "Guest \(i)", email: "g\(i)@example.com", company: "",
                             accessType: "General", revoked: revoked)
        }
        let blocked = try await store.importRoster(event: "ev1", rows: [row("G1", revoked: true), row("G2", revoked: false)], replace: false, audit: nil)
        #expect(blocked.updated == 1, "a change of the blocked flag alone is an update")
        #expect(blocked.unchanged == 1)
        let refused = try await store.ingest(event: event, items: [Self.upload("a", "G1", 1_000_000), Self.upload("a", "G2", 1_000_000)],
                                             uploader: Self.uploader, now: .now())
        #expect(refused.map(\.decision) == [.revoked, .admitted])
        let page = try await store.rosterPage(event: "ev1", after: 0, limit: 100, now: .now())
        #expect(page.guests.first { $0.id == "G1" }?.revoked == true, "stations learn it with the roster")
        let again = try await store.importRoster(event: "ev1", rows: [row("G1", revoked: false)], replace: false, audit: nil)
        #expect(again.updated == 1)
        let admitted = try await store.ingest(event: event, items: [Self.upload("b", "G1", 1_100_000)], uploader: Self.uploader, now: .now())
        #expect(admitted.map(\.decision) == [.admitted])
        await store.close()
    }

    @Test(arguments: kinds) func eachTicketsFactsFromTheExportAreKeptSentToStationsAndUsedWhenDecidingUploads(kind: String) async throws {
        let (store, directory) = try await Self.makeStore(kind)
        defer { directory.remove() }
        let event = try await Self.seed(store, guests: 2)
        let window = TicketFacts(validFrom: Timestamp(milliseconds: 2_000_000), validUntil: Timestamp(milliseconds: 3_000_000),
                                 attention: "Hand out the VIP lanyard", orderCode: "FAM01", checkedInBefore: nil)
        let before = TicketFacts(orderCode: "FAM01", checkedInBefore: Timestamp(milliseconds: 500_000))
        let rows = [RosterRow(line: 2, code: TicketCode(stored: "G1"), name: "Guest 1", email: "g1@example.com", company: "", accessType: "General", facts: window),
                    RosterRow(line: 3, code: TicketCode(stored: "G2"), name: "Guest 2", email: "g2@example.com", company: "", accessType: "General", facts: before)]
        let imported = try await store.importRoster(event: "ev1", rows: rows, replace: false, audit: nil)
        #expect(imported.updated == 2, "new facts alone are an update")
        #expect(try await store.importRoster(event: "ev1", rows: rows, replace: false, audit: nil).unchanged == 2, "the same facts again change nothing")
        let page = try await store.rosterPage(event: "ev1", after: 0, limit: 100, now: .now())
        #expect(page.guests.first { $0.id == "G1" }?.facts == window, "stations learn them with the roster")
        #expect(page.guests.first { $0.id == "G2" }?.facts == before)
        let decided = try await store.ingest(event: event, items: [Self.upload("a", "G1", 1_000_000), Self.upload("a", "G2", 1_000_000)],
                                             uploader: Self.uploader, now: .now())
        #expect(decided.map(\.decision) == [.outsideWindow, .alreadyCheckedIn], "the hub applies the same facts as the station")
        await store.close()
    }

    @Test(arguments: kinds) func aReplacingImportRevokesTheGuestsMissingFromItAndKeepsTheirCheckIns(kind: String) async throws {
        let (store, directory) = try await Self.makeStore(kind)
        defer { directory.remove() }
        let event = try await Self.seed(store, guests: 3)
        _ = try await store.ingest(event: event, items: [Self.upload("a", "G2", 1_000_000)], uploader: Self.uploader, now: .now())
        let before = try await store.rosterPage(event: "ev1", after: 0, limit: 100, now: .now()).cursor
        let kept = RosterRow(line: 2, code: TicketCode(stored: "G1"), name: "Guest 1", email: "g1@example.com", company: "", accessType: "General")
        let summary = try await store.importRoster(event: "ev1", rows: [kept], replace: true, audit: nil)
        #expect(summary.revokedMissing == ["G2", "G3"])
        let page = try await store.rosterPage(event: "ev1", after: before, limit: 100, now: .now())
        #expect(Set(page.guests.filter(\.revoked).map(\.id)) == ["G2", "G3"], "stations learn the revocations with the roster")
        #expect(try await store.importRoster(event: "ev1", rows: [kept], replace: true, audit: nil).revokedMissing.isEmpty, "revoked once")
        let stats = try await store.stats(event: "ev1")
        #expect(stats.stations.map(\.checkedIn).reduce(0, +) == 1, "the check-in of a guest revoked later is kept")
        await store.close()
    }

    @Test(arguments: kinds) func rosterPagesResumeFromTheCursor(kind: String) async throws {
        let (store, directory) = try await Self.makeStore(kind)
        defer { directory.remove() }
        let event = try await Self.seed(store, guests: 25)
        _ = try await store.ingest(event: event, items: [Self.upload("a", "G2", 5_000)], uploader: Self.uploader, now: .now())
        var cursor: Int64 = 0
        var guests: Set<String> = [], types = 0, checkIns = 0, pages = 0
        repeat {
            let page = try await store.rosterPage(event: "ev1", after: cursor, limit: 7, now: .now())
            guests.formUnion(page.guests.map(\.id))
            types += page.accessTypes.count
            checkIns += page.checkIns.count
            #expect(page.cursor >= cursor)
            cursor = page.cursor
            pages += 1
            if !page.hasMore { break }
        } while pages < 100
        #expect(guests.count == 25)
        #expect(types == 2)
        #expect(checkIns == 1)
        // Later changes arrive after the stored cursor, and nothing else.
        #expect(try await store.setRevoked(event: "ev1", guestID: "G5", revoked: true, action: nil))
        #expect(try await store.deleteGuest(event: "ev1", guestID: "G6"))
        let next = try await store.rosterPage(event: "ev1", after: cursor, limit: 100, now: .now())
        #expect(next.guests.map(\.id) == ["G5"])
        #expect(next.guests.first?.revoked == true)
        #expect(next.deletedGuestIDs == ["G6"])
        #expect(!next.hasMore)
        await store.close()
    }

    @Test(arguments: kinds) func aCursorFollowingParallelUploadsSkipsNoCheckIn(kind: String) async throws {
        let (store, directory) = try await Self.makeStore(kind)
        defer { directory.remove() }
        let event = try await Self.seed(store, guests: 400)
        var cursor = try await Self.pullAll(store, after: 0).cursor
        // 100 batches of 4 different guests each, 16 at a time, while a station keeps pulling.
        let finished = Finished()
        let uploads = Task {
            defer { finished.set() }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for batch in 0..<100 {
                    if batch >= 16 { try await group.next() }
                    group.addTask {
                        let items = (1...4).map { Self.upload("d\(batch)", "G\(batch * 4 + $0)", 1_000_000 + Int64(batch)) }
                        _ = try await store.ingest(event: event, items: items, uploader: Self.uploader, now: .now())
                    }
                }
                try await group.waitForAll()
            }
        }
        var seen: [IdempotencyKey] = []
        while true {
            let last = finished.value
            let pulled = try await Self.pullAll(store, after: cursor)
            seen += pulled.keys
            cursor = pulled.cursor
            if last { break }
        }
        try await uploads.value
        #expect(seen.count == 400, "a station following the cursor saw every accepted check-in")
        #expect(Set(seen).count == seen.count, "and each once")
        #expect(try await store.stats(event: "ev1").checkedIn == 400)
        await store.close()
    }

    /// Set once, read from any task.
    final class Finished: Sendable {
        private let flag = Mutex(false)
        func set() { flag.withLock { $0 = true } }
        var value: Bool { flag.withLock { $0 } }
    }

    static func pullAll(_ store: any HubStore, after start: Int64) async throws -> (cursor: Int64, keys: [IdempotencyKey]) {
        var cursor = start, keys: [IdempotencyKey] = []
        while true {
            let page = try await store.rosterPage(event: "ev1", after: cursor, limit: 50, now: .now())
            keys += page.checkIns.map(\.key)
            cursor = page.cursor
            if !page.hasMore { return (cursor, keys) }
        }
    }

    @Test(arguments: kinds) func undoIsAuditedAndNeedsTheRightCaller(kind: String) async throws {
        let (store, directory) = try await Self.makeStore(kind)
        defer { directory.remove() }
        let event = try await Self.seed(store)
        let upload = Self.upload("a", "G1", 1_000)
        _ = try await store.ingest(event: event, items: [upload], uploader: Self.uploader, now: .now())
        let undo = UndoUpload(key: upload.key, undoneAt: .now(), station: "Door b", operatorName: "Op b")
        let refused = try await store.undo(event: event, items: [undo], caller: Uploader(staffID: "st_b", role: .staff, deviceID: "b"), now: .now())
        #expect(refused.map(\.status) == [.forbidden])
        let own = try await store.undo(event: event, items: [undo], caller: Uploader(staffID: "st_a", role: .staff, deviceID: "a"), now: .now())
        #expect(own.map(\.status) == [.undone])
        #expect(try await store.stats(event: "ev1").checkedIn == 0)
        // After the undo the guest may enter again.
        let again = try await store.ingest(event: event, items: [Self.upload("b", "G1", 900_000)], uploader: Self.uploader, now: .now())
        #expect(again.map(\.status) == [.accepted])
        await store.close()
    }

    @Test(arguments: kinds) func walkInsAreIdempotentAndFlagMatchingEmails(kind: String) async throws {
        let (store, directory) = try await Self.makeStore(kind)
        defer { directory.remove() }
        let event = try await Self.seed(store)
        let walkIn = WalkInUpload(guestID: "w-1", code: "W1", name: "Walk In", email: "G1@example.com", accessTypeID: "general",
                                  deviceID: "a", station: "Door a", operatorName: "Op a", createdAt: .now())
        let first = try await store.ingestWalkIns(event: event, items: [walkIn, walkIn], uploader: Self.uploader, now: .now())
        #expect(first.map(\.status) == [.accepted, .accepted])
        #expect(first[0].possibleDuplicateOf == "G1")
        #expect(try await store.stats(event: "ev1").expected == 4)
        await store.close()
    }

    @Test(arguments: kinds) func staffAreFoundAndKeptApartWhateverTheEmailsCase(kind: String) async throws {
        let (store, directory) = try await Self.makeStore(kind)
        defer { directory.remove() }
        try await store.addStaff(StaffInfo(id: "s1", email: "Alex@X.org", name: "Alex", role: .staff), passwordHash: "x", audit: nil)
        #expect(try await store.staff(email: "alex@x.org")?.info.id == "s1")
        await #expect(throws: HubStoreError.self, "an account differing by case alone is refused") {
            try await store.addStaff(StaffInfo(id: "s2", email: "alex@x.ORG", name: "Other Alex", role: .organizer), passwordHash: "y", audit: nil)
        }
        #expect(try await store.staff(email: "ALEX@x.org")?.info.name == "Alex")
    }

    @Test(arguments: kinds) func refreshTokensRotateAndReuseRevokes(kind: String) async throws {
        let (store, directory) = try await Self.makeStore(kind)
        defer { directory.remove() }
        try await store.addStaff(StaffInfo(id: "s1", email: "a@x.org", name: "Alex", role: .staff), passwordHash: "x", audit: nil)
        let now = Timestamp.now()
        let tokens = NewTokens(accessHash: "a1", accessExpires: now.adding(milliseconds: 60_000), refreshHash: "r1", refreshExpires: now.adding(milliseconds: 600_000))
        try await store.createSession(NewSession(id: "ses1", staffID: "s1", tokens: tokens, createdAt: now))
        #expect(try await store.session(accessHash: "a1", now: now)?.staff.name == "Alex")
        let next = NewTokens(accessHash: "a2", accessExpires: now.adding(milliseconds: 60_000), refreshHash: "r2", refreshExpires: now.adding(milliseconds: 600_000))
        #expect(try await store.rotate(refreshHash: "r1", to: next, now: now, graceMilliseconds: 0)?.sessionID == "ses1")
        #expect(try await store.session(accessHash: "a1", now: now) == nil)
        let stolen = NewTokens(accessHash: "a3", accessExpires: now.adding(milliseconds: 60_000), refreshHash: "r3", refreshExpires: now.adding(milliseconds: 600_000))
        #expect(try await store.rotate(refreshHash: "r1", to: stolen, now: now, graceMilliseconds: 0) == nil)
        #expect(try await store.session(accessHash: "a2", now: now) == nil, "reuse of a rotated refresh token ends the session")
        await store.close()
    }
}
