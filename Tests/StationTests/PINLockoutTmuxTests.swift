import Foundation
import KioskTestSupport
import Testing

/// The self-service PIN against someone guessing at the door, through the real console in tmux:
/// pulling the plug (or anything else that restarts `kiosk run`) neither clears the wrong
/// entries counted so far nor ends a lockout, and a PIN short enough to guess is refused.
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct PINLockoutTmuxTests {
    static let pin = "482913"

    /// A self-service station on the demo roster, started again on the same data directory
    /// each time `start` is called.
    struct Station {
        let directory = TemporaryDirectory("pin-lockout")
        var data: String { directory.appending("data").path }
        var config: String { directory.appending("kiosk.conf").path }

        init() throws {
            try "self_service_pin = \(PINLockoutTmuxTests.pin)\nstation_name = Door 3\n".write(toFile: config, atomically: true, encoding: .utf8)
            let imported = try run(BuiltProducts.executable("kiosk"),
                                   ["import", BuiltProducts.packageRoot.appendingPathComponent("Kiosk/demo-roster.csv").path, "--data-dir", data])
            #expect(imported.status == 0, "\(imported.stderr)")
        }

        func start() throws -> TmuxConsole {
            let console = try TmuxConsole(["--data-dir", data, "--config", config, "--self-service"], directory: directory)
            try console.waitFor("Staff: press any function key")
            return console
        }
    }

    /// Opens the PIN prompt, types `pin` and Enter; returns the screen once it shows `expected`.
    @discardableResult
    func enter(_ pin: String, on console: TmuxConsole, expecting expected: String) throws -> String {
        try console.send("F4")
        try console.waitFor("Staff PIN:")
        try console.type(pin)
        try console.send("Enter")
        return try console.waitFor(expected)
    }

    @Test func aRestartedStationKeepsCountingWrongPINsAndKeepsTheLockout() throws {
        let station = try Station()
        defer { station.directory.remove() }
        var console = try station.start()
        try enter("111111", on: console, expecting: "Wrong PIN (4 more tries before a lockout)")
        try enter("222222", on: console, expecting: "Wrong PIN (3 more tries before a lockout)")
        try enter("333333", on: console, expecting: "Wrong PIN (2 more tries before a lockout)")
        console.stop()

        // Started again (a power cut, a crash, a stop): the count goes on where it was.
        console = try station.start()
        try enter("444444", on: console, expecting: "Wrong PIN (1 more try before a lockout)")
        try enter("555555", on: console, expecting: "PIN locked for 5 min")
        console.stop()

        // And the lockout holds across the next start: even the right PIN is not checked.
        console = try station.start()
        defer { console.stop() }
        let screen = try enter(Self.pin, on: console, expecting: "PIN locked")
        #expect(screen.contains("SELF-SERVICE"), "\(screen)")
        #expect(!screen.contains("Operator mode"), "\(screen)")
    }

    @Test func aPINShorterThanSixDigitsIsRefusedWithWhatToDo() throws {
        let directory = TemporaryDirectory("pin-short")
        defer { directory.remove() }
        let config = directory.appending("kiosk.conf")
        try "station_name = Door 3\nself_service_pin = 4321\n".write(to: config, atomically: true, encoding: .utf8)
        let result = try run(BuiltProducts.executable("kiosk"),
                             ["run", "--headless", "--no-demo", "--data-dir", directory.appending("data").path, "--config", config.path],
                             timeout: 60)
        #expect(result.status == 65, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("kiosk.conf:2: self_service_pin must be at least 6 digits"), "\(result.stderr)")
        #expect(result.stderr.contains("Set a PIN of 6 or more digits"), "\(result.stderr)")
        // Not a number at all (another script's digits, a letter) is refused the same way.
        try "self_service_pin = ١٢٣٤٥٦\n".write(to: config, atomically: true, encoding: .utf8)
        let arabic = try run(BuiltProducts.executable("kiosk"),
                             ["run", "--headless", "--no-demo", "--data-dir", directory.appending("data").path, "--config", config.path],
                             timeout: 60)
        #expect(arabic.status == 65, "\(arabic.stderr)")
    }
}
