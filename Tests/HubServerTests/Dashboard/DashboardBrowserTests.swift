import Foundation
import KioskTestSupport
import Testing

/// The dashboard in Debian's chromium, driven by Playwright (Tests/HubServerTests/Browser/
/// dashboard_test.py), against a real `checkin-hub serve` on loopback and a real `kiosk`
/// station uploading through the API. Skipped, saying why, when chromium or Playwright is
/// missing, except in CI (`CI=true`), where that fails.
@Suite(.hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct DashboardBrowserTests {
    let hubExecutable = RealHub.executable
    let kiosk = BuiltProducts.executable("kiosk")

    @Test(.enabled(if: BrowserTools.missing == nil || BrowserTools.required, "browser tests skipped: \(BrowserTools.missing ?? "")"))
    func theLivePageShowsAnUploadWithinTwoSecondsAndTheRulesHoldInABrowser() throws {
        if let missing = BrowserTools.missing {
            Issue.record("CI=true and the browser tests cannot run: \(missing)")
            return
        }
        let hub = try RealHub(guests: 20, serveArguments: Self.serveArguments)
        defer { hub.remove() }
        try runBrowser(uploadTo: hub, watch: hub, label: "dashboard-sqlite")
    }

    /// The page watches one hub while the station uploads to another on the same PostgreSQL:
    /// the update travels by the database's notifications, not by the process that took it.
    @Test(.enabled(if: (BrowserTools.missing == nil || BrowserTools.required) && (try? PostgresCluster.bin("initdb")) != nil,
                   "browser tests skipped: \(BrowserTools.missing ?? "needs Debian's postgresql package")"))
    func anUploadToOneHubReachesThePageServedByAnotherHubOfTheSameDatabase() throws {
        if let missing = BrowserTools.missing {
            Issue.record("CI=true and the browser tests cannot run: \(missing)")
            return
        }
        let hubA = try RealHub(guests: 20, database: try PostgresCluster.shared.get().createDatabase(), serveArguments: Self.serveArguments)
        defer { hubA.remove() }
        let hubB = try RealHub(sharing: hubA)
        defer { hubB.remove() }
        try runBrowser(uploadTo: hubA, watch: hubB, label: "dashboard-two-hubs")
    }

    /// A running station reports about every 5 s: silent after 8 s without one, so the page
    /// marks a stopped station within seconds, never one that runs.
    static let serveArguments = ["--station-silent-seconds", "8"]

    /// Sets up the accounts, an event and a station signed in to `uploadTo`, then runs
    /// dashboard_test.py against `watch` and fails with its output when it fails. Screenshots go
    /// to `label/` under `KIOSK_SCREENSHOTS_DIR` too (the two variants run side by side).
    func runBrowser(uploadTo hub: RealHub, watch: RealHub, label: String) throws {
        let organizer = (email: "olga@example.org", password: "organizer pass 1", name: "Olga Organizer")
        let outsider = (email: "otto@example.org", password: "outsider pass 1", name: "Otto Outsider")
        for (person, role) in [(organizer, "organizer"), (outsider, "staff")] {
            let added = try run(hubExecutable, ["staff", "add", "--db", hub.database, "--email", person.email, "--name", person.name, "--role", role],
                                stdin: person.password + "\n")
            #expect(added.status == 0, "\(added.stderr)")
        }
        // The event on screen: today, in Berlin, two access types.
        let iso = ISO8601DateFormatter()
        let gala = try hub.addEvent(name: "Autumn Gala", roster: "code,name,email,access_type\n" + (1...12).map {
            String(format: "GALA%06d", $0) + ",Guest \($0),guest\($0)@example.org,\($0 <= 3 ? "VIP" : "General")"
        }.joined(separator: "\n") + "\nGALA000013,=1+2 Formula,formula@example.org,General\n", arguments: [
            "--starts", iso.string(from: Date().addingTimeInterval(-3600)), "--ends", iso.string(from: Date().addingTimeInterval(5 * 3600)),
            "--time-zone", "Europe/Berlin",
        ])
        // The outsider works the door of another event only.
        _ = try RealHub.createEvent(database: hub.database, directory: hub.directory, name: "Other Night", roster: RealHub.roster(3),
                                    assign: [outsider.email])

        // A station signed in to the event, its roster downloaded: the browser script has it
        // check a guest in and upload.
        let station = hub.directory.appending("station").path
        let signin = try run(kiosk, ["signin", "--hub", hub.url, "--email", hub.email, "--station", "Door A", "--data-dir", station],
                             stdin: hub.password + "\n")
        try #require(signin.status == 0, "\(signin.stderr)")
        try #require(try run(kiosk, ["use", gala, "--data-dir", station]).status == 0)
        try #require(try run(kiosk, ["sync", "--data-dir", station]).status == 0)
        let upload = [
            [kiosk.path, "checkin", "GALA000002", "--data-dir", station, "--json"],
            [kiosk.path, "sync", "--data-dir", station],
        ]
        // A second door running as at the venue (`kiosk run`, a PDF printer): the stations page
        // shows its printer in words, and marks it silent once the script stops it.
        let door = hub.directory.appending("door-b").path
        let doorSignin = try run(kiosk, ["signin", "--hub", hub.url, "--email", hub.email, "--station", "Door B", "--data-dir", door],
                                 stdin: hub.password + "\n")
        try #require(doorSignin.status == 0, "\(doorSignin.stderr)")
        try #require(try run(kiosk, ["use", gala, "--data-dir", door]).status == 0)
        let badges = hub.directory.appending("door-b-badges")
        try FileManager.default.createDirectory(at: badges, withIntermediateDirectories: true)
        let running = try StationProcess(["run", "--headless", "--printer", "pdf:" + badges.path, "--no-demo", "--data-dir", door],
                                         headless: true, log: hub.directory.appending("door-b.log"))
        defer { if running.process.isRunning { running.process.terminate() } }

        try BrowserTools.runScript(BrowserTools.script, label: label, hub: hub, environment: [
            "HUB_URL": watch.url, "EVENT_ID": gala,
            "ORGANIZER_EMAIL": organizer.email, "ORGANIZER_PASSWORD": organizer.password,
            "OUTSIDER_EMAIL": outsider.email, "OUTSIDER_PASSWORD": outsider.password,
            "UPLOAD_COMMANDS": String(decoding: try JSONSerialization.data(withJSONObject: upload), as: UTF8.self),
            "RUNNING_STATION_PID": String(running.process.processIdentifier),
        ], screenshots: ["signin.png", "events.png", "live.png", "stations.png", "stations-silent.png", "csrf-refused.png", "not-found.png"],
           logs: Self.logs(of: hub === watch ? [hub] : [hub, watch]))
        #expect(try hub.stats(event: gala)["checked_in"] as? Int == 1, "the hub's own count agrees with what the page showed")
    }

    /// The end of each hub's log, for a failure to show what the hub saw.
    static func logs(of hubs: [RealHub]) -> String {
        hubs.map { hub in
            let text = (try? String(contentsOf: hub.directory.appending("hub-\(hub.port).log"), encoding: .utf8)) ?? "(no log)"
            return "--- hub on port \(hub.port):\n" + text.split(separator: "\n").suffix(40).joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
