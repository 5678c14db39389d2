import Foundation
import KioskTestSupport
import Testing

/// The console's terminal disappears without a hang-up signal reaching the station (its tmux
/// server killed): the station stops, keeping what it recorded, instead of running on blind,
/// spinning on a dead terminal.
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct ConsoleHangupTmuxTests {
    @Test func aStationWhoseTerminalIsGoneStopsAndKeepsItsCheckIns() throws {
        let directory = TemporaryDirectory("console-hangup")
        defer { directory.remove() }
        let data = directory.appending("data")
        // In a session of its own (setsid), as a station started by a unit on a terminal it does
        // not control: when that terminal goes, no hang-up signal reaches the station.
        let console = try TmuxConsole(["--data-dir", data.path, "--printer", "none"], directory: directory, wrapper: ["setsid"],
                                      columns: 80, rows: 24)
        defer { console.stop() }
        try console.waitFor("F5 demo roster")
        try console.send("F5")
        try console.waitFor("Scan your ticket")
        try console.scan("DEMO-0001")
        try console.waitFor("Welcome, José Müller")
        let station = try #require(Self.process(running: data.path))
        defer { kill(station, SIGKILL) }

        console.killServerAbruptly()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, TmuxConsole.isRunning(station) { Thread.sleep(forTimeInterval: 0.2) }
        #expect(!TmuxConsole.isRunning(station), "kiosk run \(station) still runs 30 s after its terminal went away")

        let log = (try? String(contentsOf: data.appending(path: "logs/kiosk.log"), encoding: .utf8)) ?? ""
        #expect(log.contains("the console's terminal went away: stopping the station"), "\(log)")
        let found = try run(BuiltProducts.executable("kiosk"), ["search", "DEMO-0001", "--data-dir", data.path, "--json"])
        let rows = try found.json()["results"] as? [[String: Any]] ?? []
        #expect(rows.first?["checked_in"] as? Bool == true, "\(found.stdout)\(found.stderr)")
    }

    @Test func theStorageDiagnosticScreenStopsOnSIGTERM() throws {
        let directory = TemporaryDirectory("console-diagnostic-term")
        defer { directory.remove() }
        let console = try StationFixtures.diagnosticConsole(in: directory)
        defer { console.stop() }
        let station = try #require(try console.stationPID())
        kill(station, SIGTERM)
        #expect(try console.waitForExit(seconds: 20) == 75, "the diagnostic screen kept running after SIGTERM")
    }

    /// The `kiosk run` process whose command line names `dataDirectory`.
    static func process(running dataDirectory: String) -> Int32? {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { Int32($0) } ?? []
        return pids.first { pid in
            guard let line = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            let arguments = line.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return arguments.contains("run") && arguments.contains(dataDirectory) && (arguments.first?.hasSuffix("kiosk") ?? false)
        }
    }
}
