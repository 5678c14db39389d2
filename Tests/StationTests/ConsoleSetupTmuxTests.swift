import Foundation
import KioskStore
import KioskTestSupport
import Testing

/// The station day from its own screen: the real console in tmux against a real hub, from an
/// empty data directory to the first welcome, with nothing typed on a shell.
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking, .enabled(if: RealHub.available, "needs the checkin-hub server"))
struct ConsoleSetupTmuxTests {
    @Test func signInPickTheEventDownloadItsRosterAndCheckInFromTheConsole() throws {
        let hub = try RealHub(guests: 3)
        defer { hub.remove() }
        let today = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-3600))
        _ = try hub.addEvent(name: "Summit Day", roster: RealHub.roster(2500, namePrefix: "Summit"), arguments: ["--starts", today])
        _ = try hub.addEvent(name: "Next Year Gala", roster: RealHub.roster(5), arguments: ["--starts", "2099-01-01T18:00:00Z"])
        let directory = TemporaryDirectory("kiosk-setup")
        defer { directory.remove() }
        let console = try TmuxConsole(["--data-dir", directory.appending("data").path], directory: directory)
        defer { console.stop() }

        try console.waitFor("Sign in to the hub")
        try console.signIn(to: hub, password: "not the password")
        try console.waitFor("The hub refused this e-mail and password")
        try console.type(hub.password)
        var screen = try console.screen()
        #expect(!screen.contains(hub.password), "the password is never shown")
        try console.send("Enter")

        // Today's events: the one that started an hour ago, not next year's.
        screen = try console.waitFor("Summit Day")
        #expect(screen.contains("Choose the event"))
        #expect(screen.contains("Signed in as Alex"))
        #expect(!screen.contains("Next Year Gala"))
        try console.send("Right", "Right")
        try console.waitFor("Next Year Gala")
        try console.send("Left")
        try console.waitFor("[This week]")
        try console.send("Left")
        screen = try console.waitFor("[Today]")
        // Pick "Summit Day" wherever it is in today's list: one Down at a time until it is selected.
        for _ in 0..<10 where !screen.contains("▶ Summit Day") {
            try console.send("Down")
            Thread.sleep(forTimeInterval: 0.3)
            screen = try console.screen()
        }
        try console.waitFor("▶ Summit Day")
        try console.send("Enter")
        try console.waitFor("Summit Day: 2500 guests on this station — ready to scan", seconds: 60)

        try console.type("CODE000007")
        try console.send("Enter")
        try console.waitFor("Welcome, Summit 7")

        // Nothing the operator typed reached the screen's log or the log file.
        let logs = [directory.appending("stderr.log"), directory.appending("data/logs/kiosk.log")]
            .compactMap { try? String(contentsOf: $0, encoding: .utf8) }.joined()
        #expect(!logs.contains(hub.password))
        #expect(!logs.contains("not the password"))
        let session = try Data(contentsOf: directory.appending("data/session.json"))
        #expect(session.range(of: Data(hub.password.utf8)) == nil)
        #expect(session.first != UInt8(ascii: "{"), "the session is sealed, not JSON")
    }

    @Test func whatWasChosenOnTheConsoleWinsOverTheConfigurationUntilSignOut() throws {
        let hub = try RealHub(guests: 20)
        defer { hub.remove() }
        let directory = TemporaryDirectory("kiosk-setup")
        defer { directory.remove() }
        let data = directory.appending("data")
        let signIn = try run(BuiltProducts.executable("kiosk"), ["signin", "--hub", hub.url, "--email", hub.email, "--password-env", "PW", "--data-dir", data.path],
                             environment: ["PW": hub.password])
        #expect(signIn.status == 0, "\(signIn.stderr)")
        let use = try run(BuiltProducts.executable("kiosk"), ["use", hub.eventID, "--data-dir", data.path])
        #expect(use.status == 0, "\(use.stderr)")
        // The configuration names another hub and event: the station's own choice wins.
        let other = try hub.addEvent(name: "Other Event", roster: RealHub.roster(3, namePrefix: "Other"))
        try "hub = \(hub.url)/\nevent = \(other)\n".write(to: directory.appending("kiosk.conf"), atomically: true, encoding: .utf8)

        // Started with the roster not downloaded yet: the download screen, then scanning.
        let console = try TmuxConsole(["--data-dir", data.path, "--config", directory.appending("kiosk.conf").path], directory: directory)
        defer { console.stop() }
        try console.waitFor("Sync Test: 20 guests on this station — ready to scan", seconds: 60)
        try console.type("CODE000003")
        try console.send("Enter")
        try console.waitFor("Welcome, Guest 3")
        try console.waitFor("0 pending sync", seconds: 30)

        // Sign-out with nothing pending still asks (it stops the door); F8 again confirms and
        // the sign-in screen follows; the configured hub is not asked for again.
        try console.send("F8")
        try console.waitFor("Nothing waits for the hub")
        try console.send("F8")
        let screen = try console.waitFor("Sign in to the hub")
        #expect(screen.contains("(from the configuration)"))
        #expect(!screen.contains("   Hub:       "))
        try console.type(hub.password)
        try console.send("Enter")
        // The e-mail was kept from the last sign-in; now the configured event applies.
        try console.waitFor("Other Event: 3 guests on this station — ready to scan", seconds: 60)
        try console.type("CODE000001")
        try console.send("Enter")
        try console.waitFor("Welcome, Other 1")
        // The last event's check-in is archived: it counts neither here nor at all doors.
        try console.waitFor("Here 1 · all doors 1 of 3")
    }
}
