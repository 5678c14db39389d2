import CheckInCore
import Foundation
import HubAPI
import KioskTestSupport
import Synchronization
import Testing

/// `kiosk signin`, `events`, `use`, `sync`, `status --json` and `signout` as processes.
@Suite(.hangGuard, .tags(.endToEnd), .endToEnd, .blocking) struct SyncCommandLineTests {
    let kiosk = BuiltProducts.executable("kiosk")

    @Test func signInEventsUseSyncStatusAndSignOutBehaveAsDescribed() throws {
        let hub = try FakeHub(guests: 30)
        defer { hub.stop() }
        let directory = TemporaryDirectory("sync-cli")
        defer { directory.remove() }
        let data = directory.appending("data").path

        // Provisioning: the password comes from an environment variable, never from argv.
        let signin = try run(kiosk, ["signin", "--hub", hub.url, "--email", "alex@example.org", "--password-env", "HUB_PASSWORD",
                                     "--station", "Door 3", "--data-dir", data, "--json"], environment: ["HUB_PASSWORD": "pw"])
        #expect(signin.status == 0, "\(signin.stderr)")
        #expect(try (signin.json()["staff"] as? [String: Any])?["name"] as? String == "Alex")
        let mode = try FileManager.default.attributesOfItem(atPath: directory.appending("data/session.json").path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let events = try run(kiosk, ["events", "--json", "--data-dir", data]).json()
        let list = try #require(events["events"] as? [[String: Any]])
        #expect(list.first?["id"] as? String == hub.eventID)

        #expect(try run(kiosk, ["use", hub.eventID, "--data-dir", data]).status == 0)
        let sync = try run(kiosk, ["sync", "--json", "--data-dir", data])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(try (sync.json()["pulled"] as? [String: Any])?["guests"] as? Int == 30)
        #expect(sync.stderr.contains(#""progress":"roster""#), "JSON progress lines on stderr with --json")

        var status = try run(kiosk, ["status", "--json", "--data-dir", data]).json()
        var syncStatus = try #require(status["sync"] as? [String: Any])
        #expect(syncStatus["state"] as? String == "online")
        #expect(syncStatus["pending"] as? Int == 0)
        #expect(syncStatus["last_pull"] is String)
        #expect((status["roster"] as? [String: Any])?["guests"] as? Int == 30)

        hub.stop()
        #expect(try run(kiosk, ["checkin", "CODE000001", "--data-dir", data]).status == 0)
        let refused = try run(kiosk, ["signout", "--data-dir", data])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("1 check-in hasn't synced"))
        #expect(try run(kiosk, ["signout", "--keep", "--data-dir", data]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: directory.appending("data/session.json").path)
                || !((try? String(contentsOfFile: directory.appending("data/session.json").path, encoding: .utf8)) ?? "").contains("refresh-"))
        status = try run(kiosk, ["status", "--json", "--data-dir", data]).json()
        syncStatus = try #require(status["sync"] as? [String: Any])
        #expect(syncStatus["state"] as? String == "signed_out")
        #expect(syncStatus["pending"] as? Int == 1)

        // The next sign-in syncs what was kept.
        try hub.start()
        #expect(try run(kiosk, ["signin", "--hub", hub.url, "--email", "alex@example.org", "--data-dir", data], stdin: "pw\n").status == 0)
        #expect(try run(kiosk, ["sync", "--data-dir", data]).status == 0)
        #expect(hub.state.withLock { $0.admitted.map(\.key.guestID) } == ["g1"])
        let out = try run(kiosk, ["signout", "--data-dir", data, "--json"])
        #expect(out.status == 0)
        #expect(try out.json()["signed_out"] as? Bool == true)
        status = try run(kiosk, ["status", "--json", "--data-dir", data]).json()
        #expect((status["roster"] as? [String: Any])?["guests"] as? Int == 0, "roster cleared: the station's own check-in is at the hub and archived")
    }
}
