import CheckInCore
import OperatorConsole
import Testing

/// The set-up screens as values: sign-in, event picker, download.
struct ConsoleSetupTests {
    func typed(_ text: String, into model: inout ConsoleModel) {
        for character in text { model.handle(.character(character), now: 0) }
    }

    @Test func thePasswordIsNeverDrawnNorDescribed() {
        var model = ConsoleModel()
        model.openSignIn()
        typed("http://hub.test", into: &model)
        model.handle(.tab, now: 0)
        typed("ada@example.org", into: &model)
        model.handle(.enter, now: 0)
        typed("s3cr3t-pass", into: &model)
        #expect(!model.frame().text.contains("s3cr3t"))
        #expect(model.frame().text.contains(SignInForm.mask))
        let requests = model.handle(.enter, now: 0)
        guard case .signIn(let credentials)? = requests.first else {
            Issue.record("no sign-in request: \(requests)")
            return
        }
        #expect(credentials.password == "s3cr3t-pass")
        #expect(!"\(credentials)".contains("s3cr3t") && !String(reflecting: credentials).contains("s3cr3t"))
        #expect(!"\(requests)".contains("s3cr3t"))
        #expect(!"\(model)".contains("s3cr3t"), "the model keeps no copy once submitted")
    }

    @Test func aRefusedSignInKeepsTheFormAndAsksForThePasswordAgain() {
        var model = ConsoleModel()
        model.setupDefaults = SetupDefaults(hub: "http://hub.test", email: "ada@example.org")
        model.openSignIn()
        #expect(model.signInForm?.field == .password, "the configured hub and the last e-mail are not asked for")
        typed("wrong", into: &model)
        _ = model.handle(.enter, now: 0)
        _ = model.apply(.signInRefused("The hub refused this e-mail and password: check them and try again."))
        #expect(model.screen == .signIn)
        #expect(model.signInForm?.hasPassword == false)
        #expect(model.frame().text.contains("The hub refused this e-mail and password"))
    }

    @Test func aScannedPretixDeviceQRCodeShowsTheConnectionAndARefusalGoesBackToTheSignInScreenInWords() {
        var model = ConsoleModel()
        model.openSignIn()
        #expect(model.frame().text.contains("Or scan the pretix device QR code"))
        _ = model.apply(.pretixConnecting(server: "https://tickets.example.org"))
        #expect(model.screen == .download)
        #expect(model.frame().text.contains("pretix at https://tickets.example.org"))
        _ = model.apply(.pretixRefused("pretix did not connect this station: the token was already used"))
        #expect(model.screen == .signIn)
        #expect(model.frame().text.contains("the token was already used"))
        #expect(model.takeBells() > 0)
    }

    @Test func aPretixDeviceWithSeveralListsIsAskedForThisDoorsListWithPretixsSuggestionChosenFirst() {
        var model = ConsoleModel()
        model.size = TerminalSize(rows: 24, columns: 80)
        model.openSignIn()
        _ = model.apply(.pretixConnecting(server: "https://tickets.example.org"))
        let lists = [EventChoice(id: "conf#1", name: "Main entrance · Conference", when: "Sat 28 Nov 09:00 – 18:00", phase: .now),
                     EventChoice(id: "conf#2", name: "VIP lounge · Conference\u{1B}[2J", when: "Sat 28 Nov 09:00 – 18:00", phase: .now)]
        #expect(model.apply(.pretixLists(server: "https://tickets.example.org", lists: lists, suggested: "conf#2")).isEmpty)
        #expect(model.screen == .pickEvent)
        let frame = model.frame().text
        #expect(frame.contains("Choose this door's check-in list") && frame.contains("pretix at https://tickets.example.org"))
        #expect(frame.contains("▶ VIP lounge · Conference"), "pretix's suggestion is chosen first: \(frame)")
        #expect(!frame.contains("\u{1B}"), "no terminal control from pretix's names")
        // No hub ranges, no refresh, no sign-out: the device's lists, chosen once.
        for key in [Key.right, .tab, .function(5), .function(8)] { #expect(model.handle(key, now: 0).isEmpty) }
        #expect(model.screen == .pickEvent)
        _ = model.handle(.up, now: 0)
        guard case .usePretixList(let chosen)? = model.handle(.enter, now: 0).first else {
            Issue.record("Enter did not use the list")
            return
        }
        #expect(chosen.id == "conf#1")
        // pretix refuses the choice (unreachable): back to the lists, in words.
        _ = model.apply(.eventRefused("pretix did not connect this list: pretix cannot be reached"))
        #expect(model.screen == .pickEvent && model.frame().text.contains("pretix cannot be reached"))
        #expect(model.handle(.enter, now: 0).first == .usePretixList(chosen))
    }

    @Test func afterSignInTheConfiguredEventIsUsedElseThePickerAsksForTodaysEvents() {
        var model = ConsoleModel()
        #expect(model.apply(.signedIn(as: "Ada (staff) at http://hub.test")) == [.listEvents(.today)])
        #expect(model.screen == .pickEvent)
        var configured = ConsoleModel()
        configured.setupDefaults = SetupDefaults(event: "summit")
        #expect(configured.apply(.signedIn(as: "Ada")) == [.useEvent(EventChoice(id: "summit", name: "summit", when: ""))])
        #expect(configured.screen == .download)
    }

    @Test func thePickerSwitchesRangesChoosesWithEnterAndIgnoresAnswersForAnotherRange() {
        var model = ConsoleModel()
        _ = model.openEventPicker(signedInAs: "Ada")
        #expect(model.handle(.right, now: 0) == [.listEvents(.week)])
        _ = model.apply(.events([EventChoice(id: "old", name: "Old", when: "")], for: .today))
        #expect(model.eventPicker?.events.isEmpty == true, "a late answer for today does not fill this week's list")
        let summit = EventChoice(id: "s", name: "Summit", when: "Tue 24 Nov 09:00")
        _ = model.apply(.events([EventChoice(id: "a", name: "Gala", when: ""), summit], for: .week))
        model.handle(.down, now: 0)
        #expect(model.handle(.enter, now: 0) == [.useEvent(summit)])
        #expect(model.handle(.enter, now: 0) == [], "one choice at a time")
    }

    @Test func downloadProgressThenReadyOpensTheScanScreen() {
        var model = ConsoleModel()
        model.openDownload(event: "Summit")
        _ = model.apply(.downloading(event: "Summit", done: 1000, total: 4000))
        #expect(model.frame().text.contains("1000 of 4000 guests"))
        _ = model.apply(.downloadPaused(event: "Summit", problem: "Cannot reach the hub"))
        #expect(model.frame().text.contains("Paused: Cannot reach the hub"))
        _ = model.apply(.downloading(event: "Summit", done: 2000, total: nil))
        #expect(model.download?.total == 4000, "the total stays known")
        _ = model.apply(.rosterReady(event: "Summit", guests: 4000))
        #expect(model.screen == .idle)
        #expect(model.notice?.contains("Summit: 4000 guests on this station") == true)
    }

    @Test func quitFromASetUpScreenReturnsToIt() {
        var model = ConsoleModel()
        model.openSignIn()
        model.handle(.function(10), now: 0)
        #expect(model.screen == .confirmQuit)
        model.handle(.character("Y"), now: 0)
        #expect(model.screen == .signIn)
        model.handle(.function(10), now: 0)
        #expect(model.handle(.function(10), now: 0) == [.quit])
    }

    @Test func aSignOutThatLeavesNoRosterOpensTheSignInScreenAgain() {
        var model = ConsoleModel()
        model.setupDefaults = SetupDefaults(hub: "http://hub.test", email: "ada@example.org", demo: true)
        _ = model.apply(.signedOut)
        #expect(model.screen == .signIn)
        #expect(model.frame().text.contains("F5 demo roster"))
        #expect(model.handle(.function(5), now: 0) == [.useDemoRoster])
    }
}
