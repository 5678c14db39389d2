import CheckInCore
import OperatorConsole
import Foundation
import Testing

@Suite struct ConsoleModelTests {
    func type(_ text: String, into model: inout ConsoleModel) -> [ConsoleRequest] {
        text.flatMap { model.handle(.character($0), now: 0) }
    }

    @Test func printableTextThenEnterIsATicketCode() {
        var model = ConsoleModel()
        #expect(type("DEMO-0001", into: &model).isEmpty)
        #expect(model.handle(.enter, now: 0) == [.submitCode("DEMO-0001")])
        #expect(model.input.isEmpty)
        #expect(model.handle(.enter, now: 0).isEmpty)
    }

    @Test func backspaceAndEscapeEditTheCode() {
        var model = ConsoleModel()
        _ = type("ABCX", into: &model)
        model.handle(.backspace, now: 0)
        #expect(model.input == "ABC")
        model.handle(.escape, now: 0)
        #expect(model.input.isEmpty)
    }

    @Test func searchAsYouTypeAsksForEveryChangeAndChecksInTheSelectedGuest() {
        var model = ConsoleModel()
        model.handle(.function(2), now: 0)
        #expect(model.screen == .search)
        #expect(type("jo", into: &model) == [.search("j"), .search("jo")])
        let rows = [
            GuestRow(id: "1", code: "DEMO-0001", name: "José Müller", email: "", company: "ACME", accessType: "VIP", checkedIn: nil),
            GuestRow(id: "2", code: "DEMO-0009", name: "Joan Doe", email: "", company: "", accessType: "General", checkedIn: nil),
        ]
        model.searchResults(for: "j", rows)   // stale answer: ignored
        #expect(model.results.isEmpty)
        model.searchResults(for: "jo", rows)
        model.handle(.down, now: 0)
        model.handle(.down, now: 0)
        #expect(model.selected == 1)
        model.handle(.up, now: 0)
        #expect(model.handle(.function(5), now: 0) == [.reprint(guestID: "1")])
        #expect(model.handle(.enter, now: 0) == [.checkInGuest(code: "DEMO-0001")])
        #expect(model.screen == .idle)
    }

    @Test func walkInIsValidatedBeforeItIsSubmitted() {
        var model = ConsoleModel(accessChoices: [AccessChoice(id: "general", name: "General"), AccessChoice(id: "vip", name: "VIP")])
        model.handle(.function(4), now: 0)
        #expect(model.screen == .walkIn)
        model.handle(.tab, now: 0)
        model.handle(.tab, now: 0)
        model.handle(.tab, now: 0)
        #expect(model.handle(.enter, now: 0).isEmpty)
        #expect(model.field == 0)
        #expect(model.notice?.contains("Name") == true)
        _ = type("Eve", into: &model)
        model.handle(.enter, now: 0)
        _ = type("not-an-address", into: &model)
        model.handle(.enter, now: 0)
        model.handle(.enter, now: 0)
        #expect(model.handle(.enter, now: 0).isEmpty)
        #expect(model.field == 1)
        for _ in 0..<14 { model.handle(.backspace, now: 0) }
        _ = type("eve@example.com", into: &model)
        model.handle(.tab, now: 0)
        _ = type("Door Co", into: &model)
        model.handle(.tab, now: 0)
        model.handle(.right, now: 0)
        #expect(model.handle(.enter, now: 0) == [.registerWalkIn(WalkInDraft(name: "Eve", email: "eve@example.com", company: "Door Co", accessTypeID: "vip"))])
        model.walkInRegistered()
        #expect(model.screen == .idle)
        #expect(model.draft.name.isEmpty)
    }

    @Test func operatorActionsOnFunctionKeysAndControlShortcuts() {
        var model = ConsoleModel()
        #expect(model.handle(.function(5), now: 0) == [.reprintLast])
        #expect(model.handle(.function(6), now: 0) == [.undoLast])
        #expect(model.handle(.control("z"), now: 0).isEmpty, "no control-key shortcut for a destructive action")
        #expect(model.handle(.control("o"), now: 0).isEmpty)
        #expect(model.handle(.control("q"), now: 0).isEmpty)
        #expect(model.handle(.function(7), now: 0) == [.syncNow])
        model.handle(.function(1), now: 0)
        #expect(model.screen == .help)
        model.handle(.character("x"), now: 0)
        #expect(model.screen == .idle)
    }

    @Test func quitNeedsTheFunctionKeyTwiceAndNoTypedLetterConfirmsIt() {
        var model = ConsoleModel()
        model.handle(.function(10), now: 0)
        #expect(model.screen == .confirmQuit)
        #expect(model.handle(.character("y"), now: 0).isEmpty, "a scanned code starting with Y does not stop the station")
        #expect(model.screen == .idle)
        model.handle(.function(10), now: 0)
        #expect(model.handle(.function(10), now: 0) == [.quit])
    }

    @Test(arguments: PendingChangesChoice.allCases)
    func signOutWithPendingChangesIsChosenWithArrowsAndConfirmedWithF8(choice: PendingChangesChoice) {
        var model = ConsoleModel()
        model.status.pending = 3
        model.handle(.function(8), now: 0)
        #expect(model.frame().text.contains("3 changes are not uploaded yet."))
        // Letters typed answer nothing: they are a code on the code line, and Enter submits it.
        for key in "DKW" { #expect(model.handle(.character(key), now: 0).isEmpty) }
        #expect(model.handle(.enter, now: 0) == [.submitCode("DKW")])
        #expect(model.screen == .signOut, "the prompt stays open")
        let steps = PendingChangesChoice.allCases.firstIndex(of: choice)!
        for _ in 0..<steps { model.handle(.right, now: 0) }
        if choice == .discard {
            #expect(model.handle(.function(8), now: 0).isEmpty, "a discard needs the count typed back")
            model.handle(.character("3"), now: 0)
        }
        #expect(model.handle(.function(8), now: 0) == [.signOut(choice)])
        #expect(model.input.isEmpty)
    }

    @Test func signOutWithNothingPendingStillAsksAndF8AgainConfirms() {
        var model = ConsoleModel()
        model.status.pending = 0
        #expect(model.handle(.function(8), now: 0).isEmpty)
        #expect(model.screen == .signOut)
        #expect(model.frame().text.contains("Nothing waits for the hub"))
        #expect(model.handle(.escape, now: 0).isEmpty)
        #expect(model.screen == .idle)
        model.handle(.function(8), now: 0)
        model.handle(.right, now: 0)
        #expect(model.handle(.function(8), now: 0) == [.signOut(.wait)], "with nothing pending there is nothing to choose")
    }

    @Test func theSelfServicePINLocksAfterFiveWrongEntriesForLongerEachTime() {
        var model = ConsoleModel(pin: "4321", selfService: true)
        func enter(_ pin: String, at now: Double) -> [ConsoleRequest] {
            model.handle(.function(1), now: now)
            for digit in pin { model.handle(.character(digit), now: now) }
            let prompting = model.screen == .pin
            let requests = model.handle(.enter, now: now)
            guard prompting else { return requests }
            // Every checked entry is kept (a restart must not forget it), before anything else is done.
            #expect(requests.first == .savePINGuard(model.pinGuard))
            return Array(requests.dropFirst())
        }
        for attempt in 1...4 { #expect(enter("0000", at: Double(attempt)).isEmpty) }
        #expect(enter("0000", at: 5) == [.pinLockedOut(seconds: 300)])
        #expect(model.takeBells() > 0)
        _ = enter("4321", at: 10)
        #expect(model.mode == .selfService, "the right PIN does not open a locked console")
        _ = enter("4321", at: 310)
        #expect(model.mode == .operatorMode)
        model.handle(.function(9), now: 311)
        for attempt in 1...4 { _ = enter("0000", at: 311 + Double(attempt)) }
        #expect(enter("0000", at: 320) == [.pinLockedOut(seconds: 600)], "each lockout doubles")
    }

    @Test func anExitStationSaysSoAndF12SwitchesItsDirection() {
        var model = ConsoleModel()
        #expect(model.handle(.function(12), now: 0) == [.setDirection(.exit)])
        #expect(model.frame().text.contains("EXIT"))
        #expect(model.frame().text.contains("Leaving? Scan your ticket"))
        #expect(model.handle(.function(12), now: 0) == [.setDirection(.entry)])
        #expect(!model.frame().text.contains("EXIT"))
    }

    @Test func selfServiceHidesOperatorFunctionsBehindThePIN() {
        var model = ConsoleModel(pin: "4321")
        model.handle(.function(9), now: 0)
        #expect(model.mode == .selfService)
        #expect(!model.frame().text.contains("F4 Walk-in"))
        // Codes still work for attendees.
        _ = type("DEMO-0001", into: &model)
        #expect(model.handle(.enter, now: 0) == [.submitCode("DEMO-0001")])
        // Any function key asks for the PIN; a wrong one keeps self-service.
        #expect(model.handle(.function(10), now: 0).isEmpty)
        #expect(model.screen == .pin)
        _ = type("1111", into: &model)
        model.handle(.enter, now: 0)
        #expect(model.mode == .selfService)
        #expect(!model.frame().text.contains("1111"))
        model.handle(.function(4), now: 0)
        _ = type("4321", into: &model)
        model.handle(.enter, now: 0)
        #expect(model.mode == .operatorMode)
    }

    @Test func selfServiceWithoutAPINIsRefused() {
        var model = ConsoleModel()
        model.handle(.function(9), now: 0)
        #expect(model.mode == .operatorMode)
        #expect(model.notice?.contains("PIN") == true)
    }

    @Test func resultPanelReturnsToThePromptAfterAFewSeconds() {
        var model = ConsoleModel()
        model.show(ResultPanel(decision: .admitted, guestName: "José Müller", accessType: "VIP"), now: 10)
        #expect(model.frame().text.contains("Welcome, José Müller"))
        #expect(model.takeBells() == 1)
        #expect(model.takeBells() == 0)
        model.tick(now: 12)
        #expect(model.panel != nil)
        model.tick(now: 10 + ConsoleModel.panelSeconds)
        #expect(model.panel == nil)
        #expect(model.frame().text.contains("Scan your ticket"))
    }

    @Test func alreadyCheckedInIsInformationWithWhoWhereAndWhen() {
        let previous = PriorCheckIn(by: "Alex", station: "Door 2", deviceID: "d", at: Timestamp(milliseconds: 0))
        let panel = ResultPanel(decision: .alreadyCheckedIn(previous: previous), guestName: "José", accessType: nil, timeZone: .gmt)
        #expect(panel.tone == .information)
        #expect(panel.title == "Already checked in — by Alex at Door 2, 00:00")
        #expect(panel.tone.bells == 2)
        #expect(ResultPanel(decision: .unknownCode, guestName: nil, accessType: nil).title == "Ticket not recognized — please see staff")
        #expect(ResultPanel(decision: .notValidHere(accessType: "VIP"), guestName: "A", accessType: nil).title == "Not valid for this entrance")
    }

    @Test func namesWithEscapeSequencesAreDrawnWithoutControlCharacters() {
        var model = ConsoleModel()
        model.show(ResultPanel(decision: .admitted, guestName: "Mallory\u{1b}[2J\u{1b}[31m\u{9b}1m\u{202E}", accessType: "VIP\u{07}"), now: 0)
        model.handle(.function(2), now: 0)
        model.searchResults(for: "", [GuestRow(id: "x", code: "C\u{1b}[H", name: "Eve\u{1b}]0;title\u{07}", email: "", company: "\u{1b}[5m", accessType: "", checkedIn: nil)])
        for run in model.frame().runs {
            #expect(!run.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E })
        }
        #expect(model.frame().text.contains("Welcome, Mallory[2J[31m1m"))
    }

    @Test func tooSmallTerminalsGetAClearMessageAndResizingRedraws() {
        var model = ConsoleModel()
        model.size = TerminalSize(rows: 10, columns: 40)
        #expect(model.frame().text.contains("Terminal too small"))
        #expect(model.frame().text.contains("need 60×16, have 40×10"))
        model.size = TerminalSize(rows: 40, columns: 120)
        let frame = model.frame()
        #expect(frame.text.contains("Scan your ticket"))
        #expect(frame.runs.allSatisfy { $0.row < 40 && $0.column + TerminalText.width($0.text) <= 120 })
    }

    @Test func everyRunFitsTheScreenWithWideNames() {
        var model = ConsoleModel()
        model.size = TerminalSize(rows: 16, columns: 60)
        model.show(ResultPanel(decision: .admitted, guestName: String(repeating: "王小明", count: 30), accessType: "VIP"), now: 0)
        for run in model.frame().runs {
            #expect(run.column + TerminalText.width(run.text) <= 60)
        }
    }

    @Test func diagnosticScreenNamesTheMigrationAndIgnoresCodes() {
        var model = ConsoleModel()
        model.showDiagnostic(StorageDiagnostic(migration: "0003_bad", error: "no such table: x", pendingCheckIns: 2, guests: 8))
        let text = model.frame().text
        #expect(text.contains("0003_bad"))
        #expect(text.contains("Contact support"))
        #expect(text.contains("2 pending check-in(s)"))
        #expect(type("DEMO-0001", into: &model).isEmpty)
        #expect(model.handle(.enter, now: 0).isEmpty)
        model.handle(.function(10), now: 0)
        model.handle(.escape, now: 0)
        #expect(model.screen == .diagnostic)
        model.handle(.function(10), now: 0)
        #expect(model.handle(.function(10), now: 0) == [.quit])
    }

    @Test func storageUpdatedBannerShowsUntilTheFirstAction() {
        var model = ConsoleModel()
        model.banner = "Storage updated v1 → v2"
        #expect(model.frame().text.contains("Storage updated v1 → v2"))
        _ = type("X", into: &model)
        model.handle(.enter, now: 0)
        #expect(!model.frame().text.contains("Storage updated"))
    }
}
