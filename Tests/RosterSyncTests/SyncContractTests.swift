import Foundation
import KioskTestSupport
import Testing

/// What a station records reaches the hub's event it was recorded for, exactly once, through
/// event switches, a local roster joining a hub, unknown codes and a second `kiosk` process:
/// real `kiosk` and `checkin-hub serve` processes on loopback.
@Suite(.hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct SyncContractTests {
    let kiosk = BuiltProducts.executable("kiosk")

    func signIn(_ hub: RealHub, data: String, event: String? = nil) throws {
        let signin = try run(kiosk, ["signin", "--hub", hub.url, "--email", hub.email, "--station", "Door A", "--data-dir", data],
                             stdin: hub.password + "\n")
        #expect(signin.status == 0, "\(signin.stderr)")
        if let event {
            let use = try run(kiosk, ["use", event, "--data-dir", data])
            #expect(use.status == 0, "\(use.stderr)")
        }
    }

    func checkIn(_ data: String, _ code: String, expect status: Int32 = 0) throws {
        let result = try run(kiosk, ["checkin", code, "--data-dir", data, "--json"])
        #expect(result.status == status, "\(code): \(result.stdout) \(result.stderr)")
    }

    func status(_ data: String) throws -> [String: Any] {
        try run(kiosk, ["status", "--json", "--data-dir", data]).json()
    }

    @Test func checkInsQueuedForOneEventReachThatEventAfterASwitchToAnother() throws {
        let hub = try RealHub(guests: 20)
        defer { hub.remove() }
        // Event B shares ticket codes with A (other people): an upload to B would admit strangers.
        let other = try hub.addEvent(name: "Other Gala", roster: RealHub.roster(20, namePrefix: "Stranger"))
        let directory = TemporaryDirectory("contract-switch")
        defer { directory.remove() }
        let data = directory.appending("station").path
        try signIn(hub, data: data, event: hub.eventID)
        #expect(try run(kiosk, ["sync", "--data-dir", data]).status == 0)
        hub.stop()
        try checkIn(data, "CODE000001")
        try checkIn(data, "CODE000002")
        try hub.start()

        let refused = try run(kiosk, ["use", other, "--data-dir", data])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("2 changes are waiting for Sync Test"), "\(refused.stderr)")
        let groups = try #require((try status(data)["sync"] as? [String: Any])?["by_event"] as? [[String: Any]])
        #expect(groups.count == 1)
        #expect(groups.first?["event_id"] as? String == hub.eventID)
        #expect(groups.first?["pending"] as? Int == 2)
        #expect(groups.first?["summary"] as? String == "2 waiting for Sync Test")

        let kept = try run(kiosk, ["use", other, "--keep", "--data-dir", data])
        #expect(kept.status == 0, "\(kept.stderr)")
        let synced = try run(kiosk, ["sync", "--json", "--data-dir", data])
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(try hub.stats()["checked_in"] as? Int == 2, "both reached the event they were recorded for")
        #expect(try hub.stats(event: other)["checked_in"] as? Int == 0, "nothing was booked into the other event")
        #expect((try status(data)["sync"] as? [String: Any])?["pending"] as? Int == 0)
    }

    @Test func useWithWaitUploadsFirstAndDiscardDropsOnlyTheOtherEventsChanges() throws {
        let hub = try RealHub(guests: 20)
        defer { hub.remove() }
        let other = try hub.addEvent(name: "Other Gala", roster: RealHub.roster(20, namePrefix: "Stranger"))
        let directory = TemporaryDirectory("contract-switch-choices")
        defer { directory.remove() }
        let data = directory.appending("station").path
        try signIn(hub, data: data, event: hub.eventID)
        #expect(try run(kiosk, ["sync", "--data-dir", data]).status == 0)
        hub.stop()
        try checkIn(data, "CODE000003")
        try hub.start()
        let waited = try run(kiosk, ["use", other, "--wait", "--data-dir", data])
        #expect(waited.status == 0, "\(waited.stderr)")
        #expect(try hub.stats()["checked_in"] as? Int == 1)

        #expect(try run(kiosk, ["sync", "--data-dir", data]).status == 0)
        hub.stop()
        try checkIn(data, "CODE000004")   // now for the other event
        try hub.start()
        let discarded = try run(kiosk, ["use", hub.eventID, "--discard", "--json", "--data-dir", data])
        #expect(discarded.status == 0, "\(discarded.stderr)")
        #expect(try hub.stats(event: other)["checked_in"] as? Int == 0)
        #expect((try status(data)["sync"] as? [String: Any])?["pending"] as? Int == 0)
    }

    @Test func aLocalRosterJoiningTheHubKeepsItsCheckInsAndNeverAdmitsTwice() throws {
        let hub = try RealHub(guests: 20)
        defer { hub.remove() }
        let directory = TemporaryDirectory("contract-join")
        defer { directory.remove() }
        let data = directory.appending("station").path
        let csv = directory.appending("roster.csv")
        try (RealHub.roster(20) + "LOCALONLY,Only Here,only@example.org\n").write(to: csv, atomically: true, encoding: .utf8)
        #expect(try run(kiosk, ["import", csv.path, "--data-dir", data]).status == 0)
        try checkIn(data, "CODE000002")
        try checkIn(data, "CODE000003")
        try checkIn(data, "LOCALONLY")

        try signIn(hub, data: data, event: hub.eventID)
        let first = try run(kiosk, ["sync", "--json", "--data-dir", data])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try hub.stats()["checked_in"] as? Int == 2, "the local check-ins reached the hub under its guest ids")
        let again = try run(kiosk, ["checkin", "CODE000002", "--data-dir", data, "--json"]).json()
        #expect(["duplicate", "already_checked_in"].contains(again["decision"] as? String), "never a second admission: \(again)")

        // The code the hub does not know is not refused at once: the roster may be behind.
        let firstAnswer = try first.json()
        #expect((firstAnswer["pushed"] as? [String: Any])?["held"] as? Int == 1)
        #expect((firstAnswer["refused"] as? [Any])?.isEmpty == true)
        var last: [String: Any] = [:]
        for _ in 0..<3 {
            let again = try run(kiosk, ["sync", "--json", "--data-dir", data])
            #expect(again.status == 0, "\(again.stderr)")
            last = try again.json()
        }
        let refusedList = try #require(last["refused"] as? [[String: Any]])
        #expect(refusedList.count == 1, "refused after the first answer and three more roster updates")
        #expect(refusedList.first?["kind"] as? String == "checkin")
        #expect((refusedList.first?["reason"] as? String)?.contains("after 3 roster updates") == true)
        #expect((try status(data)["sync"] as? [String: Any])?["pending"] as? Int == 0)
        #expect(try hub.stats()["checked_in"] as? Int == 2)
    }

    @Test func aSecondKioskProcessRefreshingTheSessionNeverSignsTheStationOut() throws {
        // Access tokens of 61 s: every request of both processes refreshes (under a minute left).
        let hub = try RealHub(guests: 20, serveArguments: ["--access-token-seconds", "61"])
        defer { hub.remove() }
        let directory = TemporaryDirectory("contract-two-processes")
        defer { directory.remove() }
        let data = directory.appending("station").path
        try signIn(hub, data: data, event: hub.eventID)
        #expect(try run(kiosk, ["sync", "--data-dir", data]).status == 0)
        let station = try StationProcess(["run", "--headless", "--printer", "none", "--data-dir", data], headless: true)
        defer { station.kill9() }
        station.wait { lines in lines.contains { $0.contains("\"event\":\"ready\"") } }
        // Beside a running station only read-only commands run (one station per data directory);
        // `kiosk events` asks the hub with the shared session, refreshing it as the station does.
        for round in 0..<6 {
            let code = String(format: "CODE%06d", round)
            station.send(code)
            station.wait(limit: 30) { lines in lines.contains { $0.contains("\"event\":\"decision\"") && $0.contains(code) } }
            let events = try run(kiosk, ["events", "--data-dir", data])
            #expect(events.status == 0, "round \(round): \(events.stderr)")
            usleep(700_000)
        }
        // The running station keeps syncing on its own: nothing it holds was rotated away.
        try eventually(limit: 30) { (try status(data)["sync"] as? [String: Any])?["pending"] as? Int == 0 }
        #expect((try status(data)["sync"] as? [String: Any])?["state"] as? String != "signed_out")
        #expect(try hub.sessions().filter { $0["revoked"] as? Bool == true }.isEmpty, "no session was revoked as stolen")
        #expect(try hub.stats()["checked_in"] as? Int == 6)
        #expect(!station.output.contains { $0.contains("signed_out") || $0.contains("refresh refused") })
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to mount a small file system"))
    func aSyncThatFillsTheDiskExits74AndKeepsWhatWasRecorded() throws {
        let hub = try RealHub(guests: 30_000)
        defer { hub.remove() }
        let directory = TemporaryDirectory("contract-full-disk")
        defer { directory.remove() }
        let mountPoint = directory.appending("small")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        let mounted = try run(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=3m", "tmpfs", mountPoint.path])
        try #require(mounted.status == 0, "tmpfs: \(mounted.stderr)")
        defer { _ = try? run(URL(fileURLWithPath: "/bin/umount"), [mountPoint.path]) }
        let data = mountPoint.appendingPathComponent("data").path
        let csv = directory.appending("roster.csv")
        try RealHub.roster(5).write(to: csv, atomically: true, encoding: .utf8)
        #expect(try run(kiosk, ["import", csv.path, "--data-dir", data]).status == 0)
        try checkIn(data, "CODE000001")
        try signIn(hub, data: data, event: hub.eventID)
        let sync = try run(kiosk, ["sync", "--json", "--data-dir", data])
        #expect(sync.status == 74, "\(sync.stderr)")
        #expect(sync.stderr.contains("disk is full"), "\(sync.stderr)")
        let pending = try run(kiosk, ["status", "--json", "--data-dir", data])
        #expect((try pending.json()["sync"] as? [String: Any])?["pending"] as? Int == 1, "\(pending.stderr)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime"), "needs faketime"))
    func checkInsRecordedWithAWrongClockAreKeptMarkedAndHeldNeverRefused() throws {
        let hub = try RealHub(guests: 20)
        defer { hub.remove() }
        let directory = TemporaryDirectory("contract-clock")
        defer { directory.remove() }
        let data = directory.appending("station").path
        try signIn(hub, data: data, event: hub.eventID)
        #expect(try run(kiosk, ["sync", "--data-dir", data]).status == 0)
        // A box without a real-time clock that booted without network time.
        let faketime = URL(fileURLWithPath: "/usr/bin/faketime")
        let admitted = try run(faketime, ["2001-01-01 09:00:00", kiosk.path, "checkin", "CODE000005", "--data-dir", data, "--json"])
        #expect(admitted.status == 0, "the door keeps admitting: \(admitted.stderr)")
        let wrong = try run(faketime, ["2001-01-01 09:00:05", kiosk.path, "status", "--json", "--data-dir", data]).json()
        #expect((wrong["clock"] as? [String: Any])?["state"] as? String == "wrong")
        #expect(((wrong["clock"] as? [String: Any])?["message"] as? String)?.hasPrefix("Clock wrong — set the time") == true)

        let synced = try run(kiosk, ["sync", "--json", "--data-dir", data])
        #expect(synced.status == 0, "\(synced.stderr)")
        let answer = try synced.json()
        #expect((answer["pushed"] as? [String: Any])?["held"] as? Int == 1)
        #expect((answer["refused"] as? [Any])?.isEmpty == true, "a refusal for time is not final")
        let group = try #require(((try status(data)["sync"] as? [String: Any])?["by_event"] as? [[String: Any]])?.first)
        #expect(group["pending"] as? Int == 1)
        #expect(group["held"] as? Int == 1)
        #expect(group["clock_suspect"] as? Int == 1)
        #expect(try hub.stats()["checked_in"] as? Int == 0)
        // Once the clock is right, the station is plausible again; the held check-in stays kept.
        #expect(((try status(data)["clock"] as? [String: Any])?["state"] as? String) == "ok")
    }
}
