import Foundation
import KioskTestSupport
import PrintTestSupport
import Testing

/// The real console in an 80×24 tmux window, walked through every screen with a paused printer
/// and an unplugged camera: no line is cut, every fix is readable, the key bar is complete.
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct ConsoleFitTmuxTests {
    static let keys = ["F1 Help", "F2 Search", "F3 Details", "F4 Walk-in", "F5 Reprint", "F6 Undo", "F7 Sync", "F8 Sign out",
                       "F9 Self-service", "F10 Quit", "F11 Refused uploads", "F12 Entry/Exit"]

    @Test func everyScreenAt80By24ShowsItsTextWholeAndAt132TheStatusLineOnOneRow() throws {
        let rig = try CupsRig(queues: ["badge"])
        defer { rig.stop() }
        try rig.cups("cupsdisable", ["-r", "auditor paused", "badge"])
        let directory = TemporaryDirectory("console-fit")
        defer { directory.remove() }
        let camera = directory.appending("camera")
        try FileManager.default.createDirectory(at: camera, withIntermediateDirectories: true)
        try "unplugged\n".write(to: camera.appending(path: "state"), atomically: true, encoding: .utf8)
        let config = directory.appending("kiosk.conf")
        try "self_service_pin = 432198\nstation_name = Door A\n".write(to: config, atomically: true, encoding: .utf8)
        let console = try TmuxConsole(["--data-dir", directory.appending("data").path, "--config", config.path, "--printer", "badge",
                                       "--camera", "sim:" + camera.path],
                                      directory: directory, environment: ["CUPS_SERVER": rig.server], columns: 80, rows: 24)
        defer { console.stop() }
        func check(_ text: String, _ needles: [String], _ what: String, keys: Bool = true, seconds: Double = 30) throws {
            TmuxConsole.expectWhole(try console.waitFor(text, seconds: seconds), needles + (keys ? Self.keys : []), what)
        }

        try check("Sign in to the hub", ["Tab/↓ next field · Enter signs in · F5 demo roster, no hub · F10 Quit"], "sign-in", keys: false)
        try console.send("F5")
        try console.waitFor("Scan your ticket")
        try console.scan("DEMO-0001")
        try console.waitFor("Welcome, José Müller")
        try console.waitFor("Here 1 · all doors 1 of 8 · inside 1")
        let missing = "plug the camera in (or pick another device with --camera /dev/videoN). Manual entry still works."
        try check("resume the queue", ["Badge printing is paused (auditor paused)", "→ resume the queue (cupsenable badge)",
                                       "no hub — 1 check-in kept on this station", "printer fault", "camera fault",
                                       "roster 8 guests, just imported", "Here 1 · all doors 1 of 8 · inside 1"], "scan screen")
        try console.send("F1")
        try check("Any key closes this help", ["F8 sign out (asks first: wait, keep or discard)", "F11 Ctrl-E uploads the hub refused"], "help")
        try console.send("F1")
        try check("Test the scanner", ["keyboard wedge on the console", "Any key returns to scanning."], "scanner test")
        try console.send("Escape")
        try console.send("F3")
        try check("Details — in full", [missing, "No camera — type codes or use the scanner", "resume the queue (cupsenable badge)"], "details")
        try console.send("Escape")
        try console.send("F2")
        try console.type("jose")
        try check("▶ José Müller", ["↑↓ choose · Enter check in · F5 reprint badge · Esc back"], "search")
        try console.send("Escape")
        try console.send("F4")
        try check("Walk-in registration", ["Tab/↓ next field · ←→ access type", "Enter on Access type registers, checks in and prints · Esc cancel",
                                           "◀ General ▶"], "walk-in")
        try console.send("Escape")
        try console.send("F11")
        try check("Uploads the hub refused", ["None: every upload was accepted.", "Any key closes this list."], "refused uploads")
        try console.send("Escape")
        try console.send("F8")
        try check("Sign out of the hub", ["1 change is not uploaded yet.", "Keep them on this station; they upload at the next sign-in",
                                          "←→ choose · F8 confirm · Esc cancel"], "sign out")
        try console.send("Escape")
        try console.send("F10")
        try check("Quit the station?", ["F10 again = quit · any other key = keep running"], "quit")
        try console.send("Escape")
        try console.send("F12")
        try console.waitFor("EXIT · Door A")
        try console.scan("DEMO-0002")
        try check("Goodbye, Ødegård Ås", ["Not checked in on this station's records: exit recorded and flagged for the organizer",
                                          "EXIT · Door A · operator · leaving guests scan here"], "exit without entry")
        try console.send("F12")
        try console.send("F9")
        try check("Hold the QR code in front of the camera", ["Staff: press any function key for the PIN"], "self-service", keys: false)
        try console.send("F1")
        try check("Staff PIN:", ["Enter to confirm · Esc back to self-service"], "PIN", keys: false)
        try console.type("432198")
        try console.send("Enter")
        try console.waitFor("Operator mode")

        // At 132 columns an ordinary status line is one row, whole.
        try console.resize(columns: 132, rows: 40)
        let wide = try console.waitFor("F7 Sync  F8 Sign out")   // one key row at 132 holds F1 to F10
        #expect(wide.split(separator: "\n").contains { $0.contains("no hub — ") && $0.contains("printer fault") && $0.contains("roster 8 guests") },
                "\(wide)")
        TmuxConsole.expectWhole(wide, [], "132 columns")
    }

    @Test func theStorageDiagnosticAt80By24ShowsTheWholeError() throws {
        let directory = TemporaryDirectory("console-fit")
        defer { directory.remove() }
        let console = try StationFixtures.diagnosticConsole(in: directory)
        defer { console.stop() }
        let screen = try console.screen()
        TmuxConsole.expectWhole(screen, ["no such table: no_such_table"], "diagnostic")
    }
}
