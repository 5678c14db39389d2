import CheckInCore
import Foundation
import GRDB
import HubServer
import KioskStore
import KioskTestSupport
import Logging
import Testing

/// The review page end to end, with real processes: two `kiosk` stations of one event admit the
/// same single-entry ticket while the hub is down, one of them adds a walk-in with a
/// registration's e-mail; the hub comes back and both sync. In chromium (review_test.py) the
/// organizer marks the conflict reviewed, merges the walk-in and undoes the first admission;
/// then the hub's log holds each action, and the station, after its next sync, has the
/// registration checked in, no walk-in left and its admission undone.
@Suite(.timeLimit(.minutes(6)), .tags(.endToEnd), .endToEnd, .blocking)
struct ReviewBrowserTests {
    let kiosk = BuiltProducts.executable("kiosk")
    static let script = BuiltProducts.packageRoot.appendingPathComponent("Tests/HubServerTests/Browser/review_test.py")
    static let registration = "Ada Lovelace"
    /// Typed at the door with markup in it: the page must show it as text.
    static let walkInName = "Ada <img src=x onerror=alert(1)> L."

    @Test(.enabled(if: BrowserTools.missing == nil || BrowserTools.required, "browser tests skipped: \(BrowserTools.missing ?? "")"))
    func offlineDoorsConflictAWalkInIsMergedAndAnUndoReachesTheStation() async throws {
        if let missing = BrowserTools.missing {
            Issue.record("CI=true and the browser tests cannot run: \(missing)")
            return
        }
        let hub = try RealHub(guests: 3)
        defer { hub.remove() }
        try await review(hub, label: "review")
    }

    /// The same on PostgreSQL: the merge and the undo reach the door through the other store.
    @Test(.enabled(if: (BrowserTools.missing == nil || BrowserTools.required) && (try? PostgresCluster.bin("initdb")) != nil,
                   "browser tests skipped: \(BrowserTools.missing ?? "needs Debian's postgresql package")"))
    func theSameReviewOnPostgreSQL() async throws {
        if let missing = BrowserTools.missing {
            Issue.record("CI=true and the browser tests cannot run: \(missing)")
            return
        }
        let hub = try RealHub(guests: 3, database: try PostgresCluster.shared.get().createDatabase())
        defer { hub.remove() }
        try await review(hub, label: "review-postgres")
    }

    func review(_ hub: RealHub, label: String) async throws {
        let organizer = (email: "olga@example.org", password: "organizer pass 1", name: "Olga Organizer")
        let added = try run(RealHub.executable, ["staff", "add", "--db", hub.database, "--email", organizer.email, "--name", organizer.name,
                                                 "--role", "organizer"], stdin: organizer.password + "\n")
        try #require(added.status == 0, "\(added.stderr)")
        // Single entry, and a tolerance window of 1 s: two doors 2 s apart are a conflict, not one check-in.
        let iso = ISO8601DateFormatter()
        let event = try hub.addEvent(name: "Review Night", roster: """
            code,name,email,access_type
            REV000001,\(Self.registration),ada@example.org,General
            REV000002,Grace Hopper,grace@example.org,General

            """, arguments: [
                "--window-seconds", "1", "--time-zone", "Europe/Berlin",
                "--starts", iso.string(from: Date().addingTimeInterval(-3600)), "--ends", iso.string(from: Date().addingTimeInterval(5 * 3600)),
            ])

        // Two doors signed in and synced while the hub is up.
        let doorA = hub.directory.appending("door-a").path, doorB = hub.directory.appending("door-b").path
        for (door, name) in [(doorA, "Door A"), (doorB, "Door B")] {
            let signin = try run(kiosk, ["signin", "--hub", hub.url, "--email", hub.email, "--station", name, "--data-dir", door],
                                 stdin: hub.password + "\n")
            try #require(signin.status == 0, "\(signin.stderr)")
            try #require(try run(kiosk, ["use", event, "--data-dir", door]).status == 0)
            try #require(try run(kiosk, ["sync", "--data-dir", door]).status == 0)
        }

        // The hub goes down; both doors admit Ada's ticket, 2 s apart; door A adds Ada again as a walk-in.
        hub.stop()
        let first = try run(kiosk, ["checkin", "REV000001", "--data-dir", doorA, "--json"]).json()
        #expect(first["decision"] as? String == "admitted")
        try await Task.sleep(for: .seconds(2))
        let second = try run(kiosk, ["checkin", "REV000001", "--data-dir", doorB, "--json"]).json()
        #expect(second["decision"] as? String == "admitted", "door B could not know")
        do {
            // The console's walk-in form writes through this store call (there is no command for it).
            let station = try KioskDatabase.open(dataDirectory: URL(fileURLWithPath: doorA))
            let walkIn = try await station.desk.addWalkIn(WalkInRequest(name: Self.walkInName, email: "ADA@example.org", accessTypeID: "general",
                                                                         operatorName: "Alex", station: "Door A"))
            #expect(walkIn.decision.kind == .admitted)
        }

        // The hub is back: door A uploads first, so door B's admission is the refused one.
        try hub.start()
        for door in [doorA, doorB] {
            let synced = try run(kiosk, ["sync", "--data-dir", door])
            try #require(synced.status == 0, "\(synced.stderr)")
        }
        #expect(try hub.stats(event: event)["conflicts"] as? Int == 1)

        let result = try BrowserTools.runScript(Self.script, label: label, hub: hub, environment: [
            "HUB_URL": hub.url, "EVENT_ID": event, "ORGANIZER_EMAIL": organizer.email, "ORGANIZER_PASSWORD": organizer.password,
            "REGISTRATION_NAME": Self.registration, "WALK_IN_NAME": Self.walkInName,
        ], screenshots: ["review.png", "review-phone.png"], logs: DashboardBrowserTests.logs(of: [hub]))
        try #require(result.status == 0)

        // Each action is in the hub's log, by the organizer (after the set-up's, made with `checkin-hub`).
        let store = try HubDatabase.open(hub.database, logger: Logger(label: "review-test"))
        let actions = try await store.organizerActions(event: event).filter { $0.actorID != CommandLineActor.id }
        await store.close()
        #expect(actions.map(\.kind) == [.conflictReviewed, .walkInMerged, .admissionUndone])
        #expect(actions.allSatisfy { $0.actorName == organizer.name })

        // Door A's next sync: Ada's registration is checked in (the walk-in's admission moved to
        // it), the walk-in is gone, nothing is left to upload, and its own admission is undone.
        let synced = try run(kiosk, ["sync", "--data-dir", doorA])
        try #require(synced.status == 0, "\(synced.stderr)")
        let found = try run(kiosk, ["search", "ada", "--data-dir", doorA, "--json"]).json()
        let results = try #require(found["results"] as? [[String: Any]])
        #expect(results.map { $0["code"] as? String } == ["REV000001"], "no walk-in left: \(results)")
        #expect(results.first?["checked_in"] as? Bool == true)
        let status = try run(kiosk, ["status", "--data-dir", doorA, "--json"]).json()
        #expect((status["sync"] as? [String: Any])?["pending"] as? Int == 0)
        let station = try KioskDatabase.open(dataDirectory: URL(fileURLWithPath: doorA))
        // The station's own id of the hub's guest REV000001 (no ticket code is a station id).
        let ada = station.stationGuestID(hubID: "REV000001")
        let undone = try station.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM check_ins WHERE guest_id = ? AND undone_at IS NOT NULL", arguments: [ada])
        }
        #expect(undone == 1, "the undo made on the page reached the door")
        let admitted = try station.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM check_ins WHERE guest_id = ? AND undone_at IS NULL", arguments: [ada])
        }
        #expect(admitted == 1, "the walk-in's admission now counts for the registration")
    }
}
