import Foundation
import KioskTestSupport
import Testing

/// The storage key as the running station shows it: a key on the data's own disk said on the
/// console's fault line, and a key moved to a USB stick waited for at start (on the console in
/// tmux, and headless) until the stick is plugged in. A folder on another file system than the
/// data (`/dev/shm`) stands in for the mounted stick; renaming it away is pulling it out.
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct StorageKeyStationTests {
    let kiosk = BuiltProducts.executable("kiosk")

    struct Station {
        let directory = TemporaryDirectory("station-key")
        let stick = URL(fileURLWithPath: "/dev/shm/kiosk-stick-\(UUID().uuidString.prefix(8))")
        var data: String { directory.appending("data").path }
        var away: URL { URL(fileURLWithPath: stick.path + "-away") }

        /// A station on the demo roster whose key is on the stick, pulled out.
        init(onStick: Bool) throws {
            let kiosk = BuiltProducts.executable("kiosk")
            #expect(try run(kiosk, ["import", BuiltProducts.packageRoot.appendingPathComponent("Kiosk/demo-roster.csv").path, "--data-dir", data]).status == 0)
            guard onStick else { return }
            try FileManager.default.createDirectory(at: stick, withIntermediateDirectories: true)
            let moved = try run(kiosk, ["storage", "move-key", "--to-removable", stick.path, "--data-dir", data])
            #expect(moved.status == 0, "\(moved.stderr)")
            try FileManager.default.moveItem(at: stick, to: away)
        }

        func plugIn() throws { try FileManager.default.moveItem(at: away, to: stick) }

        func remove() {
            directory.remove()
            try? FileManager.default.removeItem(at: stick)
            try? FileManager.default.removeItem(at: away)
        }
    }

    @Test func aHeadlessStationWaitsForItsKeysUSBStickSayingSoThenStartsByItself() throws {
        let station = try Station(onStick: true)
        defer { station.remove() }
        let process = try StationProcess(["run", "--headless", "--no-demo", "--data-dir", station.data], headless: true)
        defer { process.kill9() }
        process.wait { $0.contains { $0.contains("\"event\":\"storage_key_waiting\"") } }
        let waiting = try #require(process.output.first { $0.contains("storage_key_waiting") })
        #expect(waiting.contains("Plug the stick in: the station starts by itself."), "\(waiting)")
        // Still waiting a while later: nothing is opened without the key.
        Thread.sleep(forTimeInterval: 2)
        #expect(!process.output.contains { $0.contains("\"event\":\"ready\"") }, "\(process.output)")
        #expect(process.process.isRunning)

        try station.plugIn()
        process.wait { $0.contains { $0.contains("\"event\":\"ready\"") } }
        #expect(process.output.contains { $0.contains("\"event\":\"ready\"") }, "\(process.output)")
        process.send("DEMO-0001")
        process.wait { $0.contains { $0.contains("\"event\":\"decision\"") } }
        #expect(process.output.contains { $0.contains("\"event\":\"decision\"") && $0.contains("admitted") }, "\(process.output)")
    }

    @Test func theConsoleWaitsForTheKeysUSBStickOnItsScreenThenShowsTheStation() throws {
        let station = try Station(onStick: true)
        defer { station.remove() }
        let console = try TmuxConsole(["--data-dir", station.data, "--no-demo"], directory: station.directory)
        defer { console.stop() }
        let waiting = try console.waitFor("WAITING FOR THE STORAGE KEY")
        #expect(waiting.contains("Plug the stick in: the station starts by itself."), "\(waiting)")
        try station.plugIn()
        let screen = try console.waitFor("Scan your ticket")
        #expect(!screen.contains("Guest data key on this same disk"), "a key on the stick is no fault: \(screen)")
        try console.type("DEMO-0002")
        try console.send("Enter")
        try console.waitFor("Welcome")
    }

    @Test func aKeyOnTheDataDisksIsSaidOnTheConsolesFaultLineAndInTheRunningStationsHealth() throws {
        let station = try Station(onStick: false)
        defer { station.remove() }
        let console = try TmuxConsole(["--data-dir", station.data, "--no-demo"], directory: station.directory)
        defer { console.stop() }
        let screen = try console.waitFor("Guest data key on this same disk: a stolen disk or box opens the guest data")
        #expect(screen.contains("Scan your ticket"))
        var health: [String: Any]?
        try eventually {
            let status = try run(kiosk, ["status", "--data-dir", station.data, "--json"])
            health = ((try? status.json())?["run"] as? [String: Any])?["health"] as? [String: Any]
            return health?["storage_key"] != nil
        }
        let key = try #require(health?["storage_key"] as? [String: Any], "\(String(describing: health))")
        #expect(key["state"] as? String == "key_file_same_disk")
        #expect((key["fix"] as? String)?.contains("kiosk storage move-key --to-removable") == true, "\(key)")
    }
}
