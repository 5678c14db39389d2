import CheckInCore
import Foundation
import GRDB
import HubAPI
import HubServer
import KioskTestSupport
import Logging
import Testing

/// A hub database made by the previous release (checkin-hub 0.9.0, kept as SQL dumps in
/// `Fixtures/`, made by `Fixtures/make-release-database.py`) is migrated and served by today's
/// hub, on both stores: every row reads as it was written, and stations and organizers go on
/// where they left off.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking) struct HubUpgradeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "Fixtures")
    static let base: Int64 = 1_760_029_200_000

    /// The release's database, restored from its dump into a fresh database; its `--db` URL.
    static func restore(_ kind: String, in directory: TemporaryDirectory) throws -> String {
        let dump = fixtures.appending(path: "hub-0.9.0-\(kind).sql")
        guard kind == "postgres" else {
            let path = directory.appending("hub.sqlite").path
            let queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { try $0.execute(sql: try String(contentsOf: dump, encoding: .utf8)) }
            try queue.close()
            return "sqlite:" + path
        }
        let url = try PostgresCluster.shared.get().createDatabase()
        let components = try #require(URLComponents(string: url))
        let restored = try run(try PostgresCluster.bin("psql"), [
            "-h", components.host ?? "", "-p", String(components.port ?? 5432), "-U", components.user ?? "kiosk",
            "-d", String(components.path.dropFirst()), "-v", "ON_ERROR_STOP=1", "-q", "-f", dump.path,
        ])
        try #require(restored.status == 0, "\(restored.stderr)")
        return url
    }

    @Test(arguments: StoreContractTests.databaseKinds) func theReleasesDatabaseReadsAsItWasWritten(kind: String) async throws {
        let directory = TemporaryDirectory("hub-upgrade")
        defer { directory.remove() }
        let store = try HubDatabase.open(try Self.restore(kind, in: directory), logger: Logger(label: "test"))
        #expect(try await store.migrate() == [], "the release's schema is today's")
        #expect(try await store.schemaVersion() == HubMigration.sqlite.last?.name)

        let gala = try #require(try await store.event(id: "gala"))
        #expect(gala == EventSummary(id: "gala", name: "Winter Gala", startsAt: Timestamp(milliseconds: Self.base),
                                     endsAt: Timestamp(milliseconds: Self.base + 6 * 3_600_000), timeZone: "Europe/Vienna",
                                     toleranceWindowMilliseconds: 30_000, stationUndoMilliseconds: 300_000))
        #expect(try await store.events().map(\.id).sorted() == ["fair", "gala"])
        #expect(try await store.accessTypes(event: "gala").map { "\($0.name)/\($0.reentry)" } == ["Day pass/false", "General/false", "VIP/true"])

        let grace = try #require(try await store.guestRecord(event: "gala", id: "G3"))
        #expect(grace.guest.facts.attentionNote == "Wheelchair access")
        #expect(grace.guest.facts.orderCode == "ORD-2")
        #expect(grace.guest.facts.validFrom == Timestamp(milliseconds: Self.base - 3_600_000))
        #expect(grace.status == .inside, "in, out and in again on a re-entry pass")
        #expect(try await store.guestRecord(event: "gala", id: "G6")?.status == .revoked)
        #expect(try await store.findGuests(event: "gala", matching: GuestQuery("châtelet"), limit: 10).map(\.guest.id) == ["G5"])

        let stats = try await store.stats(event: "gala")
        let figures: [Int] = [stats.expected, stats.checkedIn, stats.inside, stats.duplicates, stats.conflicts]
        #expect(figures == [7, 4, 4, 1, 1], "expected, admitted, inside, duplicates, conflicts")
        #expect(try await store.conflicts(event: "gala").map(\.guestID) == ["G2"])
        #expect(try await store.walkInReviews(event: "gala").map(\.guestID) == ["w-2"])
        let review = try await store.reviewItems(event: "gala", limit: 100)
        #expect(review.filter { $0.mark != nil }.map(\.kind) == [.refusal])
        #expect(try await store.organizerActions(event: "gala").map(\.kind) == [.manualCheckIn, .guestRevoked, .refusalReviewed])
        #expect(try await store.hubLog(event: "gala").count == 14, "9 check-ins, an unknown code, an undo, 3 actions")

        let page = try await store.rosterPage(event: "gala", after: 0, limit: 1_000, now: .now())
        #expect(page.guests.count == 8)
        #expect(page.checkIns.filter(\.undone).map(\.key.guestID) == ["G4"])
        let latest = try await store.latestChange(event: "gala")
        #expect(page.cursor == latest)
        #expect(try await store.stationContacts(event: "gala").map(\.deviceID) == ["door-1"])
        #expect(try await store.staffAccounts(event: "gala").map(\.info.email) == ["alex@example.org", "olga@example.org", "sam@example.org"])
        await store.close()
    }

    @Test(arguments: StoreContractTests.databaseKinds) func stationsAndOrganizersGoOnWhereTheyLeftOff(kind: String) async throws {
        let directory = TemporaryDirectory("hub-upgrade")
        defer { directory.remove() }
        let server = try HubProcess(db: try Self.restore(kind, in: directory))
        defer { server.stop() }
        let signedOut = HubClient(base: server.base)
        let tokens = try await signedOut.post(HubPaths.signIn, SignInRequest(email: "alex@example.org", password: "door-pass-1"), as: TokenPair.self)
        let station = HubClient(base: server.base, token: tokens.accessToken)
        // The same station signing in again keeps its device id; another secret is refused.
        _ = try await station.post(HubPaths.stations, StationRegistrationRequest(name: "Door 1", deviceID: "door-1", deviceSecret: "secret-of-door-1"),
                                   as: StationRegistration.self)
        let taken = try await station.send("POST", HubPaths.stations, json: StationRegistrationRequest(name: "Door 1", deviceID: "door-1", deviceSecret: "secret-of-another-station"))
        #expect(taken.status == 409)
        let roster = try await station.get(HubPaths.roster(event: "gala") + "?cursor=0&limit=1000", as: RosterPage.self)
        #expect(roster.guests.map(\.id).sorted() == ["G1", "G2", "G3", "G4", "G5", "G6", "w-1", "w-2"])
        let item = CheckInUpload(key: IdempotencyKey(deviceID: "door-1", guestID: "G4", scannedAt: .now()), station: "Door 1",
                                 operatorName: "Alex", source: .camera)
        let answer = try await station.post(HubPaths.checkIns(event: "gala"), CheckInBatch(items: [item]), as: CheckInBatchResult.self)
        #expect(answer.results.map(\.decision) == [.admitted], "Alan's undone exit is no movement")
        let next = try await station.get(HubPaths.roster(event: "gala") + "?cursor=\(roster.cursor)&limit=1000", as: RosterPage.self)
        #expect(next.checkIns.map(\.key.guestID) == ["G4"], "the next change follows the release's last one")
        let stats = try await station.get(HubPaths.stats(event: "gala"), as: EventStats.self)
        #expect(stats.checkedIn == 5)
    }
}
