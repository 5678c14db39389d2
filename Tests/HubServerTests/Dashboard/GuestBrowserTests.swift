import Foundation
import KioskTestSupport
import Testing

/// The guest lookup, guest page and arrivals chart in Debian's chromium, driven by Playwright
/// (Tests/HubServerTests/Browser/guest_test.py), against a real `checkin-hub serve`; then a real
/// `kiosk` station of the event syncs and refuses the ticket the organizer revoked, online and
/// with the hub gone. Skipped, saying why, when chromium or Playwright is missing, except in CI
/// (`CI=true`), where that fails.
@Suite(.hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct GuestBrowserTests {
    let hubExecutable = RealHub.executable
    let kiosk = BuiltProducts.executable("kiosk")
    static let script = BuiltProducts.packageRoot.appendingPathComponent("Tests/HubServerTests/Browser/guest_test.py")

    @Test(.enabled(if: BrowserTools.missing == nil || BrowserTools.required, "browser tests skipped: \(BrowserTools.missing ?? "")"))
    func anOrganizerFindsChecksInAndRevokesGuestsAndTheStationRefusesTheRevokedTicketOffline() throws {
        if let missing = BrowserTools.missing {
            Issue.record("CI=true and the browser tests cannot run: \(missing)")
            return
        }
        let hub = try RealHub(guests: 3)
        defer { hub.remove() }
        try runGuests(on: hub, label: "guest")
    }

    @Test(.enabled(if: (BrowserTools.missing == nil || BrowserTools.required) && (try? PostgresCluster.bin("initdb")) != nil,
                   "browser tests skipped: \(BrowserTools.missing ?? "needs Debian's postgresql package")"))
    func theGuestPagesAndTheRevokedTicketWorkAlikeOnAHubOnPostgreSQL() throws {
        if let missing = BrowserTools.missing {
            Issue.record("CI=true and the browser tests cannot run: \(missing)")
            return
        }
        let hub = try RealHub(guests: 3, database: try PostgresCluster.shared.get().createDatabase())
        defer { hub.remove() }
        try runGuests(on: hub, label: "guest-postgres")
    }

    /// Sets up the organizer, the event and a synced station on `hub`, runs guest_test.py, then
    /// has the station refuse the revoked ticket online and with the hub stopped. Screenshots go
    /// to `label/` under `KIOSK_SCREENSHOTS_DIR` too.
    func runGuests(on hub: RealHub, label: String) throws {
        let organizer = (email: "olga@example.org", password: "organizer pass 1", name: "Olga Organizer")
        let added = try run(hubExecutable, ["staff", "add", "--db", hub.database, "--email", organizer.email, "--name", organizer.name,
                                            "--role", "organizer"], stdin: organizer.password + "\n")
        #expect(added.status == 0, "\(added.stderr)")
        // Tonight in Berlin; a roster with an order of two and a hostile name.
        let iso = ISO8601DateFormatter()
        let roster = """
            code,name,email,access_type,order,attention
            ADA00001,Ada Lovelace,ada@example.org,General,ORD-7,Hand out the speaker badge
            BYR00002,Lord Byron,byron@example.org,General,ORD-7,
            GRC00003,Grace Hopper,grace@example.org,VIP,,
            EVL00004,<script>alert(1)</script>\u{1b}[31mRed,evil@example.org,General,,

            """
        let gala = try hub.addEvent(name: "Autumn Gala", roster: roster, arguments: [
            "--starts", iso.string(from: Date().addingTimeInterval(-2 * 3600)), "--ends", iso.string(from: Date().addingTimeInterval(3 * 3600)),
            "--time-zone", "Europe/Berlin",
        ])

        // A station of the event, its roster downloaded before anything is revoked.
        let station = hub.directory.appending("station").path
        let signin = try run(kiosk, ["signin", "--hub", hub.url, "--email", hub.email, "--station", "Door A", "--data-dir", station],
                             stdin: hub.password + "\n")
        try #require(signin.status == 0, "\(signin.stderr)")
        try #require(try run(kiosk, ["use", gala, "--data-dir", station]).status == 0)
        try #require(try run(kiosk, ["sync", "--data-dir", station]).status == 0)
        // Grace enters at the door: the chart has a bar before the organizer does anything.
        let grace = try run(kiosk, ["checkin", "GRC00003", "--data-dir", station, "--json"])
        #expect(try grace.json()["decision"] as? String == "admitted", "\(grace.stdout) \(grace.stderr)")
        try #require(try run(kiosk, ["sync", "--data-dir", station]).status == 0)

        try BrowserTools.runScript(Self.script, label: label, hub: hub, environment: [
            "HUB_URL": hub.url, "EVENT_ID": gala,
            "ORGANIZER_EMAIL": organizer.email, "ORGANIZER_PASSWORD": organizer.password,
        ], screenshots: ["guests.png", "guest.png", "guest-revoked.png", "live.png"], logs: DashboardBrowserTests.logs(of: [hub]))
        #expect(try hub.stats(event: gala)["checked_in"] as? Int == 2, "Grace at the door and Ada from the dashboard")

        // The station learns the revocation with its next sync, and refuses the ticket…
        try #require(try run(kiosk, ["sync", "--data-dir", station]).status == 0)
        let online = try run(kiosk, ["checkin", "BYR00002", "--data-dir", station, "--json"])
        #expect(try online.json()["decision"] as? String == "revoked", "\(online.stdout) \(online.stderr)")
        // …and with the hub gone, from its own copy of the roster.
        hub.stop()
        let offline = try run(kiosk, ["checkin", "BYR00002", "--data-dir", station, "--json"])
        #expect(try offline.json()["decision"] as? String == "revoked", "\(offline.stdout) \(offline.stderr)")
        // The dashboard's admission reached the station too: Ada is already checked in there.
        let ada = try run(kiosk, ["checkin", "ADA00001", "--data-dir", station, "--json"])
        let decision = try ada.json()["decision"] as? String
        #expect(decision == "already_checked_in" || decision == "duplicate", "\(ada.stdout)")
    }
}
