import CheckInCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import KioskTestSupport
import PrintTestSupport
import Synchronization
import Testing

/// The organizer's station list, end to end: a real `checkin-hub serve` and a real `kiosk`
/// (signed in, event chosen and synced through its command line, then running headless) whose
/// health reports show in `GET /v1/events/{event}/stations`, and which is marked silent once it stops.
@Suite(.hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct StationHealthReportTests {
    @Test func aStationShowsInTheHubsListWithItsPrinterWordsAndVersionAndIsMarkedSilentOnceItStops() throws {
        let hub = try RealHub(guests: 5, serveArguments: ["--station-silent-seconds", "2"])
        defer { hub.remove() }
        let directory = TemporaryDirectory("station-reports")
        defer { directory.remove() }
        let organizer = try OrganizerClient(hub: hub)

        // `kiosk signin`, `kiosk use`, `kiosk sync`: a one-shot sync reports too, with no printer
        // or camera to speak of (no station runs on that data directory).
        let door = try HubDoor("Door A", hub: hub, directory: directory)
        let synced = try #require(try organizer.stations().first)
        #expect(synced["deviceID"] as? String != nil)
        let oneShot = try #require(synced["report"] as? [String: Any])
        #expect(oneShot["name"] as? String == "Door A")
        #expect(oneShot["version"] as? String == ProductVersion.current)
        #expect(oneShot["staffName"] as? String == "Alex")
        #expect(oneShot["printer"] == nil)

        // `kiosk run --headless` with a printer: its reports carry the words its screen shows.
        let badges = directory.appending("badges")
        try FileManager.default.createDirectory(at: badges, withIntermediateDirectories: true)
        let station = try StationProcess(["run", "--headless", "--printer", "pdf:" + badges.path, "--no-demo", "--data-dir", door.data.path],
                                         headless: true, log: door.data.appending(path: "station.log"))
        station.wait(limit: 60) { lines in lines.contains { $0.contains(#""event":"ready""#) } }
        var running: [String: Any]?
        eventually(limit: 60) {
            usleep(200_000)
            guard let listed = try? organizer.stations().first, let report = listed["report"] as? [String: Any],
                  (report["printer"] as? [String: Any])?["state"] as? String == "ready", listed["silent"] as? Bool == false else { return false }
            running = listed
            return true
        }
        let live = try #require(running, "the running station's report never arrived: \(station.output.suffix(5))")
        let report = try #require(live["report"] as? [String: Any])
        #expect((report["printer"] as? [String: Any])?["words"] as? String == "printer ready")
        #expect((report["camera"] as? [String: Any])?["state"] as? String == "off")
        #expect(report["version"] as? String == ProductVersion.current)
        #expect(report["pending"] as? Int == 0)
        #expect(live["deviceID"] as? String == synced["deviceID"] as? String)

        // Stopped: no more reports, and after 2 s the list says so.
        station.process.terminate()
        station.process.waitUntilExit()
        var silent = false
        eventually(limit: 30) {
            usleep(200_000)
            silent = (try? organizer.stations().first?["silent"] as? Bool) == true
            return silent
        }
        #expect(silent)
        let stopped = try #require(try organizer.stations().first)
        #expect(stopped["lastContact"] as? Int64 != nil || stopped["lastContact"] as? Int != nil)
        #expect(((stopped["report"] as? [String: Any])?["printer"] as? [String: Any])?["words"] as? String == "printer ready")
    }
}

extension StationHealthReportTests {
    /// The station list (and the dashboard's stations page, which puts "Printer:" before them)
    /// shows the printer fault in the station's words, said once: not "Printer: Printer: …".
    @Test func aPausedPrinterReachesTheHubInWordsThatDoNotRepeatTheLabel() throws {
        let rig = try CupsRig(queues: ["badge"])
        defer { rig.stop() }
        let hub = try RealHub(guests: 3)
        defer { hub.remove() }
        let directory = TemporaryDirectory("station-reports")
        defer { directory.remove() }
        let organizer = try OrganizerClient(hub: hub)
        let door = try HubDoor("Door A", hub: hub, directory: directory)
        try rig.cups("cupsdisable", ["-r", "auditor paused", "badge"])
        let station = try StationProcess(["run", "--headless", "--printer", "badge", "--no-demo", "--data-dir", door.data.path],
                                         headless: true, environment: ["CUPS_SERVER": rig.server], log: door.data.appending(path: "station.log"))
        defer { station.kill9() }
        var words: String?
        eventually(limit: 90) {
            usleep(200_000)
            let printer = (try? organizer.stations().first?["report"] as? [String: Any])?["printer"] as? [String: Any]
            guard printer?["state"] as? String == "fault" else { return false }
            words = printer?["words"] as? String
            return true
        }
        let said = try #require(words, "the paused printer never reached the hub: \(station.output.suffix(5))")
        #expect(said.hasPrefix("Badge printing is paused"), "\(said)")
        #expect(!said.lowercased().hasPrefix("printer:"), "the page adds its own label: \(said)")
    }
}

/// An organizer of the hub, signed in over HTTP, reading the event's station list.
struct OrganizerClient {
    let hub: RealHub
    let token: String

    init(hub: RealHub) throws {
        self.hub = hub
        let password = "organizer password 1"
        let added = try run(RealHub.executable, ["staff", "add", "--db", hub.database, "--email", "olga@example.org", "--name", "Olga",
                                                 "--role", "organizer"], stdin: password + "\n")
        guard added.status == 0 else { throw HubFailure("staff add: \(added.stderr)") }
        let body = try JSONSerialization.data(withJSONObject: ["email": "olga@example.org", "password": password])
        let (status, data) = try Self.send("POST", hub.url + "/v1/auth/sign-in", token: nil, body: body)
        guard status == 200, let answer = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let token = answer["accessToken"] as? String else { throw HubFailure("organizer sign-in: \(status)") }
        self.token = token
    }

    /// `GET /v1/events/{event}/stations`: the stations, as parsed JSON objects.
    func stations() throws -> [[String: Any]] {
        let (status, data) = try Self.send("GET", hub.url + "/v1/events/\(hub.eventID)/stations", token: token, body: nil)
        guard status == 200, let list = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw HubFailure("station list: \(status) \(String(decoding: data, as: UTF8.self))")
        }
        return list["stations"] as? [[String: Any]] ?? []
    }

    static func send(_ method: String, _ url: String, token: String?, body: Data?) throws -> (status: Int, data: Data) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.httpBody = body
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let answer = Answer()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, _ in
            answer.value.withLock { $0 = ((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data()) }
            done.signal()
        }.resume()
        done.wait()
        guard let (status, data) = answer.value.withLock({ $0 }) else { throw HubFailure("no answer from \(url)") }
        return (status, data)
    }

    /// What the request's callback hands back to the waiting test.
    final class Answer: Sendable {
        let value = Mutex<(Int, Data)?>(nil)
    }
}
