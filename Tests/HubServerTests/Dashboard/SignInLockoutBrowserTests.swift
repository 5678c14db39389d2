import Foundation
import KioskTestSupport
import Testing

/// Password guessing against the organizer's account as the organizer's browser meets it, in
/// Debian's chromium driven by Playwright (Tests/HubServerTests/Browser/lockout_test.py), against a
/// real `checkin-hub serve`: after guesses from many addresses a browser that never signed in is
/// held back, the organizer's own (its device cookie) is let in from a new address and its events
/// page names the account being guessed at. Skipped, saying why, when chromium or Playwright is
/// missing, except in CI (`CI=true`).
@Suite(.hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct SignInLockoutBrowserTests {
    static let script = BuiltProducts.packageRoot.appendingPathComponent("Tests/HubServerTests/Browser/lockout_test.py")

    @Test(.enabled(if: BrowserTools.missing == nil || BrowserTools.required, "browser tests skipped: \(BrowserTools.missing ?? "")"))
    func theOrganizersBrowserIsLetInWhileOthersGuessAndIsToldOfIt() throws {
        if let missing = BrowserTools.missing {
            Issue.record("CI=true and the browser tests cannot run: \(missing)")
            return
        }
        // The test machine is the hub's proxy: each browser and the guesser name their address.
        let hub = try RealHub(guests: 1, serveArguments: ["--trusted-proxy", "127.0.0.1", "--sign-in-first-wait-seconds", "60"])
        defer { hub.remove() }
        let organizer = (email: "olga@example.org", password: "organizer pass 1")
        let added = try run(RealHub.executable, ["staff", "add", "--db", hub.database, "--email", organizer.email, "--name", "Olga Organizer",
                                                 "--role", "organizer"], stdin: organizer.password + "\n")
        #expect(added.status == 0, "\(added.stderr)")
        try BrowserTools.runScript(Self.script, label: "lockout", hub: hub, environment: [
            "HUB_URL": hub.url, "ORGANIZER_EMAIL": organizer.email, "ORGANIZER_PASSWORD": organizer.password, "GUESSES": "30",
        ], screenshots: ["lockout-new-browser.png", "lockout-notice.png"], logs: DashboardBrowserTests.logs(of: [hub]))
    }
}
