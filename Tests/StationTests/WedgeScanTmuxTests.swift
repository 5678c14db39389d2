import CheckInCore
import Foundation
import GRDB
import KioskStore
import KioskTestSupport
import Testing

/// A keyboard-wedge scanner typing into the real console (in tmux) on whatever screen is open:
/// its burst is decided as a check-in with source `scanner`, and the open screen (code line,
/// search box, walk-in form, prompts) never sees its keys. A person's typing still works.
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct WedgeScanTmuxTests {
    func start() throws -> (TmuxConsole, TemporaryDirectory) {
        let directory = TemporaryDirectory("kiosk-wedge")
        let console = try TmuxConsole(["--data-dir", directory.appending("data").path, "--printer", "none"], directory: directory)
        try console.waitFor("Sign in to the hub")
        try console.send("F5")
        try console.waitFor("Scan your ticket")
        return (console, directory)
    }

    /// `code → source` of every check-in, in order.
    func checkIns(_ directory: TemporaryDirectory) throws -> [String: String] {
        let database = try KioskDatabase.open(dataDirectory: directory.appending("data"))
        let rows = try database.read { db in
            try Row.fetchAll(db, sql: "SELECT kiosk_guest_field(g.sealed, 'code') AS code, c.source FROM check_ins c JOIN guests g ON g.id = c.guest_id")
                .map { [$0["code"] as String, $0["source"] as String] }
        }
        return Dictionary(rows.map { ($0[0], $0[1]) }, uniquingKeysWith: { $1 })
    }

    @Test func onTheIdleScreenTypingByHandIsTypedAndABurstIsAScan() throws {
        let (console, directory) = try start()
        defer { console.stop(); directory.remove() }
        try console.typeByHand("DEMO-0001")
        try console.waitFor("Code: DEMO-0001")
        try console.send("Enter")
        try console.waitFor("Welcome, José Müller")
        try console.scan("DEMO-0002")
        try console.waitFor("Welcome, Ødegård Ås")
        #expect(try checkIns(directory) == ["DEMO-0001": "typed", "DEMO-0002": "scanner"])
        // Half a code typed by hand stays on the code line while a scan goes through.
        try console.typeByHand("DEM")
        try console.waitFor("Code: DEM")
        try console.scan("DEMO-0003")
        let screen = try console.waitFor("Welcome, 王小明")
        #expect(screen.contains("Code: DEM\n") || screen.contains("Code: DEM "), "\(screen)")
        #expect(try checkIns(directory)["DEMO-0003"] == "scanner")
    }

    @Test func inTheSearchBoxABurstIsACheckInAndTheQueryAndSelectionAreUntouched() throws {
        let (console, directory) = try start()
        defer { console.stop(); directory.remove() }
        try console.send("F2")
        try console.waitFor("Search:")
        try console.typeByHand("jose")
        try console.waitFor("▶ José Müller")
        try console.scan("DEMO-0002")
        let screen = try console.waitFor("Welcome, Ødegård Ås")
        #expect(screen.contains("Search: jose"))
        #expect(screen.contains("▶ José Müller"))
        // The burst's Enter did not check in the selected guest.
        #expect(try checkIns(directory) == ["DEMO-0002": "scanner"])
        try console.send("Enter")
        try console.waitFor("Welcome, José Müller")
        #expect(try checkIns(directory)["DEMO-0001"] == "search")
    }

    @Test func onTheWalkInFormABurstIsACheckInAndTheFieldIsUntouched() throws {
        let (console, directory) = try start()
        defer { console.stop(); directory.remove() }
        try console.send("F4")
        try console.waitFor("Walk-in registration")
        try console.typeByHand("Zoë")
        try console.waitFor("Zoë")
        try console.scan("DEMO-0003")
        let screen = try console.waitFor("Welcome, 王小明")
        #expect(screen.contains("Walk-in registration"))
        let nameLine = screen.split(separator: "\n").first { $0.contains("Name:") } ?? ""
        #expect(nameLine.contains("Zoë") && !nameLine.contains("DEMO"), "\(nameLine)")
        #expect(try checkIns(directory) == ["DEMO-0003": "scanner"])
        let walkIns = try KioskDatabase.open(dataDirectory: directory.appending("data"))
            .read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM guests WHERE walk_in = 1") }
        #expect(walkIns == 0, "the burst's Enter did not move on or register the form")
    }

    @Test func onTheSignOutAndQuitPromptsABurstIsACheckInAndNeverAnAnswer() throws {
        let (console, directory) = try start()
        defer { console.stop(); directory.remove() }
        try console.scan("DEMO-0001")
        try console.waitFor("1 check-in kept on this station")
        // "D" is discard on the sign-out prompt: a code starting with D must not answer it.
        try console.send("F8")
        try console.waitFor("Discard them")
        try console.scan("DEMO-0002")
        var screen = try console.waitFor("Welcome, Ødegård Ås")
        #expect(screen.contains("Discard them") && screen.contains("F8 confirm"), "the prompt is still open")
        try console.waitFor("2 check-ins kept on this station")
        #expect(try checkIns(directory).count == 2)
        try console.send("Escape")
        // "y" quits on the quit prompt: a code starting with Y must not stop the station.
        try console.send("F10")
        try console.waitFor("Quit the station?")
        try console.scan("YES-1234")
        screen = try console.waitFor("Ticket not recognized")
        #expect(screen.contains("Quit the station?"))
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try console.waitForExit(seconds: 0.1) == nil, "the station is still running")
        try console.send("n")
        try console.waitFor("Code:")
    }

    @Test func onTheHelpScreenABurstIsACheckInWithAllItsCharacters() throws {
        let (console, directory) = try start()
        defer { console.stop(); directory.remove() }
        try console.send("F1")
        try console.waitFor("Any key closes this help")
        try console.scan("DEMO-0003")
        let screen = try console.waitFor("Welcome, 王小明")
        #expect(screen.contains("Any key closes this help"), "the burst did not close the help either")
        #expect(try checkIns(directory) == ["DEMO-0003": "scanner"])
    }

    @Test func theScannerTestShowsEachScansSourceAndTimingAndChecksNobodyIn() throws {
        let (console, directory) = try start()
        defer { console.stop(); directory.remove() }
        try console.send("F1")
        try console.waitFor("test the scanner")
        // F1 again (a function key: a typed letter goes to the code line).
        try console.send("F1")
        try console.waitFor("Test the scanner — scans here are shown, nobody is checked in")
        try console.scan("DEMO-0004")
        let screen = try console.waitFor("keyboard wedge on the console")
        #expect(screen.contains("DEMO-0004"))
        #expect(screen.contains("10 keys in"), "the burst's keys and their timing: \(screen)")
        Thread.sleep(forTimeInterval: 1)
        #expect(try checkIns(directory).isEmpty, "testing the scanner checked nobody in")
        // Any key returns to scanning, and the same scan then checks in.
        try console.send("Escape")
        try console.waitFor("Code:")
        try console.scan("DEMO-0004")
        try console.waitFor("Welcome")
        #expect(try checkIns(directory) == ["DEMO-0004": "scanner"])
    }

    @Test func onTheSignInScreenABurstIsAPresentationAndTheFormIsUntouched() throws {
        let directory = TemporaryDirectory("kiosk-wedge")
        defer { directory.remove() }
        let console = try TmuxConsole(["--data-dir", directory.appending("data").path, "--printer", "none"], directory: directory)
        defer { console.stop() }
        try console.waitFor("Sign in to the hub")
        try console.typeByHand("http://h")
        try console.waitFor("Hub:       http://h")
        // No roster yet: the code is answered (not recognized), never typed into the hub field.
        try console.scan("DEMO-0001")
        let screen = try console.waitFor("Ticket not recognized")
        #expect(screen.contains("Hub:       http://h\n") || screen.contains("Hub:       http://h "), "the field is untouched")
        #expect(!screen.contains("http://hDEMO"))
        #expect(screen.contains("Sign in to the hub"), "the Enter did not submit the form")
    }
}
