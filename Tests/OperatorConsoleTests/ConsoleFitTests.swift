import CheckInCore
import Foundation
import Testing
@testable import OperatorConsole

/// Every screen at 80×24, filled with the longest texts the station really shows: nothing is
/// cut (no "…" but the prose ones), every key is on the bar, every fix and status part is whole.
@Suite struct ConsoleFitTests {
    /// "…" that is prose ("Signing in…"), not a cut.
    static let proseEllipses = ["Signing in…", "Asking the hub…", "Preparing the event…", "Syncing with the hub…"]

    /// The screen's text with line breaks and runs of spaces as one space (wrapped text reads whole).
    static func flat(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    static func cuts(_ frame: ConsoleFrame) -> [String] {
        frame.text.split(separator: "\n").map(String.init).filter { line in
            var rest = line
            for prose in proseEllipses { rest = rest.replacingOccurrences(of: prose, with: "") }
            return rest.contains("…")
        }
    }

    static let faults: [StationFault] = [
        StationFault(words: "Badge printing is paused (auditor paused)", fix: "resume the queue (cupsenable badge)"),
        StationFault(words: "No camera — type codes or use the scanner",
                     fix: "Camera access required: add user kiosk to group video (/dev/video0 cannot be opened), then restart the station."),
    ]

    static func station(size: TerminalSize = TerminalSize(rows: 24, columns: 80)) -> ConsoleModel {
        var model = ConsoleModel(pin: "1234", accessChoices: [AccessChoice(id: "general", name: "General"), AccessChoice(id: "crew", name: "Crew")])
        model.size = size
        model.status = StationStatusLine(
            hub: "hub unreachable — working offline", hasHub: true, pending: 12, rosterGuests: 1500, rosterAge: "2 h old",
            printer: "printer fault · 3 badges waiting", camera: "camera fault",
            stationName: "Door A", refused: 2, faults: faults, printerAlert: true, counts: "Here 12 · all doors 340 of 1500 · inside 290 · as of 19:41")
        return model
    }

    func expectWhole(_ model: ConsoleModel, _ needles: [String], _ screen: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let frame = model.frame(clock: "08:31")
        if ProcessInfo.processInfo.environment["CONSOLE_FIT_DUMP"] != nil { print("=== \(screen)\n" + frame.text) }
        #expect(Self.cuts(frame).isEmpty, "\(screen): cut lines \(Self.cuts(frame))\n\(frame.text)", sourceLocation: sourceLocation)
        let flat = Self.flat(frame.text)
        for needle in needles {
            #expect(flat.contains(Self.flat(needle)), "\(screen): \"\(needle)\" not whole in\n\(frame.text)", sourceLocation: sourceLocation)
        }
    }

    static let keys = ["F1 Help", "F2 Search", "F3 Details", "F4 Walk-in", "F5 Reprint", "F6 Undo", "F7 Sync", "F8 Sign out",
                       "F9 Self-service", "F10 Quit", "F11 Refused uploads", "F12 Entry/Exit"]

    @Test func theScanScreenWithAFaultAWaitingBadgesQuestionAndAResultFits() {
        var model = Self.station()
        let fix = Self.faults[0].fix!
        expectWhole(model, Self.keys + [Self.faults[0].words, fix] + model.status.parts, "idle")
        model.askAboutStaleBadges(StaleBadgesQuestion(count: 3, choices: StaleBadgesChoice.allCases))
        model.show(ResultPanel(tone: .warning, title: "Goodbye, Zoë O'Brien",
                               detail: "Not checked in on this station's records: exit recorded and flagged for the organizer"), now: 0)
        model.note("Not done: There is no second badge printer: print the badges on this one, or cancel them.")
        expectWhole(model, ["Print 3 waiting badges?", "print them all now, in order", "cancel them (hand the badges out at the desk)",
                            "exit recorded and flagged for the organizer", "print the badges on this one, or cancel them."] + Self.keys,
                    "idle with question")
    }

    @Test func everyOperatorScreenFits() {
        var model = Self.station()
        model.show(ResultPanel(tone: .welcome, title: "Welcome, José Müller", detail: "VIP · Your badge is printing",
                               note: "Staff: Hand out the VIP lanyard and the dinner voucher"), now: 0)
        for (key, screen, needles) in [
            (Key.function(1), "help", ["F8 sign out (asks first", "F12 switch entries ⇄ exits", "Any key closes this help"]),
            (.function(3), "details", [Self.faults[1].fix!, Self.faults[0].fix!, "Staff: Hand out the VIP lanyard and the dinner voucher"]
                + model.status.parts),
            (.function(4), "walk-in", ["Enter on Access type registers, checks in and prints", "Esc cancel"]),
            (.function(8), "sign out", ["12 changes are not uploaded yet.", "F8 confirm · Esc cancel"]),
            (.function(10), "quit", ["F10 again = quit"]),
        ] as [(Key, String, [String])] {
            var open = model
            open.handle(key, now: 0)
            expectWhole(open, needles + Self.keys, screen)
        }
        var search = model
        search.handle(.function(2), now: 0)
        search.handle(.character("a"), now: 0)
        search.searchResults(for: "a", [GuestRow(id: "1", code: "FAM-0001", name: "Ana Lima", email: "", company: "ACME", accessType: "Day",
                                                 checkedIn: nil, order: "FAM01")])
        expectWhole(search, ["Ctrl-O whole order FAM01", "Esc back"] + Self.keys, "search")
        var refused = model
        refused.handle(.function(11), now: 0)
        refused.showRefused([RefusedUpload(what: "Check-in Ana Lima", reason: "the hub refused it: the ticket was revoked at 08:12 by the organizer", at: "08:20")])
        expectWhole(refused, ["the ticket was revoked at 08:12 by the organizer"] + Self.keys, "refused uploads")
        var scanner = model
        scanner.handle(.function(1), now: 0)
        scanner.handle(.function(1), now: 0)
        scanner.lastScan = ScannerDiagnostics(code: "DEMO-0001", source: .wedge, timing: ScanTiming(keyGaps: [.milliseconds(3)], duration: .milliseconds(3)))
        expectWhole(scanner, ["keys less than wedge_max_key_gap_ms apart and Enter make a scan."] + Self.keys, "scanner test")
    }

    @Test func theSetUpScreensFit() {
        var model = Self.station()
        model.setupDefaults = SetupDefaults(hub: "https://hub.example.org", demo: true)
        model.openSignIn()
        _ = model.apply(.signInRefused("Cannot reach the hub (connection refused): check the hub address and the network, then press Enter to try again."))
        expectWhole(model, ["then press Enter to try again.", "F5 demo roster, no hub", "F10 Quit"], "sign-in")
        _ = model.openEventPicker(signedInAs: "Alexandra Example (manager) at https://hub.example.org")
        _ = model.apply(.events([
            EventChoice(id: "1", name: "Day 1 (yesterday)", when: "Fri 27 Nov 09:00 – 18:00", phase: .ended),
            EventChoice(id: "2", name: "Summit Day", when: "Sat 28 Nov 09:00 – 18:00", phase: .now),
            EventChoice(id: "3", name: "Gala Tomorrow", when: "Sat 28 Nov 20:00 – Sun 29 Nov 02:00", phase: .upcoming),
        ], for: .today))
        expectWhole(model, ["Sat 28 Nov 20:00 – Sun 29 Nov 02:00", "Fri 27 Nov 09:00 – 18:00 ended", "F8 sign out", "F10 Quit"], "picker")
        model.openDownload(event: "Summit Day")
        _ = model.apply(.downloadPaused(event: "Summit Day", problem: "Cannot reach the hub (read timed out): check the network; it resumes by itself."))
        expectWhole(model, ["read timed out): check the network; it resumes by itself.", "the download resumes at the next start"], "download")
    }

    @Test func theDiagnosticScreenShowsTheWholeError() {
        var model = Self.station()
        model.showDiagnostic(StorageDiagnostic(migration: "0042_add_print_jobs_possible_duplicate.sql",
                                               error: "Migration 0042_add_print_jobs_possible_duplicate.sql failed: no such table: print_jobs_old (the data directory was restored from an older backup?)",
                                               pendingCheckIns: 3, guests: 1500))
        expectWhole(model, ["no such table: print_jobs_old (the data directory was restored from an older backup?)", "Contact support"], "diagnostic")
    }

    @Test func at132ColumnsTheStatusLineIsWholeAndAnOrdinaryOneTakesOneRow() {
        var model = Self.station(size: TerminalSize(rows: 40, columns: 132))
        expectWhole(model, model.status.parts + Self.keys, "132 columns")
        model.status = StationStatusLine(hub: "hub online", hasHub: true, pending: 0, rosterGuests: 3057, rosterAge: "2 h old",
                                         printer: "printer ready · 2 badges waiting", camera: "scanning: camera /dev/video0", stationName: "Door A")
        let rows = model.frame().text.split(separator: "\n").map(String.init)
        #expect(rows.contains { $0.contains(model.status.text) }, "\(model.status.text)\n\(model.frame().text)")
    }

    @Test func wrappingKeepsEveryWordAndAbbreviatesOnlyByTheRule() {
        #expect(TerminalText.wrap("one two three four", width: 9) == ["one two", "three", "four"])
        #expect(TerminalText.wrap("one two three four", width: 9, lines: 2) == ["one two", "three fo…"])
        #expect(TerminalText.wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(TerminalText.pack(["F1 Help", "F2 Search", "F10 Quit"], width: 18, separator: "  ") == ["F1 Help  F2 Search", "F10 Quit"])
    }
}
