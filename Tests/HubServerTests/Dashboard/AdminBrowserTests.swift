import Foundation
import KioskTestSupport
import Testing

/// The organizer's pages in Debian's chromium, driven by Playwright (Tests/HubServerTests/Browser/
/// admin_test.py), against a real `checkin-hub serve` on loopback: an event created and edited
/// with two access types, a roster uploaded (its report, broken files, a refused upload without
/// the CSRF token, the live page updating by itself), a staff member added (a wrong password of
/// the organizer's own refused first), assigned, signed in, disabled, enabled and given a new
/// password, each confirmed with the organizer's password, a real station's session revoked,
/// support refused, and the organizer's own password changed with the current one. Skipped,
/// saying why, when chromium or Playwright is missing, except in CI (`CI=true`).
@Suite(.hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct AdminBrowserTests {
    let hubExecutable = RealHub.executable
    let kiosk = BuiltProducts.executable("kiosk")
    static let script = BuiltProducts.packageRoot.appendingPathComponent("Tests/HubServerTests/Browser/admin_test.py")

    @Test(.enabled(if: BrowserTools.missing == nil || BrowserTools.required, "browser tests skipped: \(BrowserTools.missing ?? "")"))
    func anOrganizerRunsAnEventsSetUpAndItsStaffFromTheBrowser() throws {
        if let missing = BrowserTools.missing {
            Issue.record("CI=true and the browser tests cannot run: \(missing)")
            return
        }
        let hub = try RealHub(guests: 2)
        defer { hub.remove() }
        let organizer = (email: "olga@example.org", password: "organizer pass 1", name: "Olga Organizer")
        let support = (email: "sue@example.org", password: "support pass 1", name: "Sue Support")
        for (person, role) in [(organizer, "organizer"), (support, "support")] {
            let added = try run(hubExecutable, ["staff", "add", "--db", hub.database, "--email", person.email, "--name", person.name, "--role", role],
                                stdin: person.password + "\n")
            #expect(added.status == 0, "\(added.stderr)")
        }
        // A station signed in (the hub's check-in staff account): its session is listed with
        // its device and name on the staff page, and revoked there.
        let station = hub.directory.appending("station").path
        let signin = try run(kiosk, ["signin", "--hub", hub.url, "--email", hub.email, "--station", "Door West", "--data-dir", station],
                             stdin: hub.password + "\n")
        try #require(signin.status == 0, "\(signin.stderr)")

        let result = try BrowserTools.runScript(Self.script, label: "admin", hub: hub, environment: [
            "HUB_URL": hub.url,
            "ORGANIZER_EMAIL": organizer.email, "ORGANIZER_PASSWORD": organizer.password,
            "SUPPORT_EMAIL": support.email, "SUPPORT_PASSWORD": support.password, "STATION_NAME": "Door West",
        ], screenshots: ["event-edit.png", "upload-report.png", "upload-problem.png", "staff.png", "staff-own-password.png"], logs: DashboardBrowserTests.logs(of: [hub]))
        guard result.status == 0 else { return }
        // The hub's own command line agrees with what the pages showed.
        let event = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("[dashboard] event: ") }?.split(separator: " ").last)
        #expect(try hub.stats(event: String(event))["expected"] as? Int == 3)
        let sessions = try hub.sessions()
        #expect(sessions.contains { $0["station"] as? String == "Door West" && $0["revoked"] as? Bool == true }, "the station's session was revoked")
        let staff = try run(hubExecutable, ["staff", "list", "--db", hub.database, "--json"]).json()["staff"] as? [[String: Any]] ?? []
        let sam = try #require(staff.first { $0["email"] as? String == "sam.door@example.org" })
        #expect(sam["disabled"] as? Bool == false && sam["role"] as? String == "staff" && sam["events"] as? [String] == [String(event)])
    }
}
