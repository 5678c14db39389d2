import CheckInCore

/// The station day's first steps on the console: sign in to a hub, pick the event, wait for its
/// roster, then scan. Each step is a screen; the station's answers (``SetupAnswer``) move
/// between them. Only F10 (quit) and the screen's own keys work here: a scan is decided as a
/// presentation by the station, never typed into these fields.
extension ConsoleModel {
    /// Opens the sign-in screen (the configured hub is not asked for, the last e-mail is filled in).
    public mutating func openSignIn() {
        signInForm = SignInForm(hub: setupDefaults.hub, email: setupDefaults.email)
        eventPicker = nil
        download = nil
        screen = .signIn
    }

    /// Opens the event picker on today's events; returns the request for them.
    public mutating func openEventPicker(signedInAs: String) -> [ConsoleRequest] {
        signInForm = nil
        download = nil
        eventPicker = EventPicker(signedInAs: signedInAs)
        screen = .pickEvent
        return [.listEvents(.today)]
    }

    /// Opens the download screen for an event already chosen (a download interrupted by a stop,
    /// or the event named in the configuration).
    public mutating func openDownload(event: String) {
        signInForm = nil
        eventPicker = nil
        download = RosterDownload(eventName: event)
        screen = .download
    }

    /// Whether a set-up screen is open (the station is not scanning for this event yet).
    public var isSettingUp: Bool { screen == .signIn || screen == .pickEvent || screen == .download }

    /// Applies the station's answer; returns what to ask next (the events after a sign-in).
    public mutating func apply(_ answer: SetupAnswer) -> [ConsoleRequest] {
        switch answer {
        case .signedIn(let who):
            // The configuration's event applies while none is chosen on the station.
            if let event = setupDefaults.event {
                openDownload(event: event)
                return [.useEvent(EventChoice(id: event, name: event, when: ""))]
            }
            return openEventPicker(signedInAs: who)
        case .signInRefused(let problem):
            signInForm?.refused(TerminalText.clean(problem))
            pendingBells += 1
        case .events(let events, let range):
            eventPicker?.show(events, for: range)
        case .eventsUnavailable(let problem):
            eventPicker?.failed(TerminalText.clean(problem))
        case .eventRefused(let problem):
            // Back to the picker (opened now when the event came from the configuration).
            var requests: [ConsoleRequest] = []
            if let picker = eventPicker {
                eventPicker = picker
                download = nil
                screen = .pickEvent
            } else {
                requests = openEventPicker(signedInAs: "")
            }
            eventPicker?.failed(TerminalText.clean(problem))
            pendingBells += 1
            return requests
        case .downloading(let event, let done, let total):
            if download == nil || screen != .download { openDownload(event: event) }
            download?.done = done
            let known = download?.total
            download?.total = total ?? known
            download?.problem = nil
        case .downloadPaused(let event, let problem):
            if download == nil || screen != .download { openDownload(event: event) }
            download?.problem = TerminalText.clean(problem)
        case .rosterReady(let event, let guests):
            signInForm = nil
            eventPicker = nil
            download = nil
            if isSettingUp { screen = .idle }
            notice = TerminalText.clean("\(event): \(guests) guest\(guests == 1 ? "" : "s") on this station — ready to scan")
        case .signedOut:
            openSignIn()
        case .pretixConnecting(let server):
            openDownload(event: "pretix at " + TerminalText.clean(server))
        case .pretixLists(let server, let lists, let suggested):
            signInForm = nil
            download = nil
            eventPicker = EventPicker(pretix: TerminalText.clean(server), lists: lists.map(Self.cleaned), suggested: suggested)
            screen = .pickEvent
        case .pretixRefused(let problem):
            if signInForm == nil { openSignIn() }
            signInForm?.refused(TerminalText.clean(problem))
            pendingBells += 1
        }
        return []
    }

    /// A choice as the console may show it: no terminal controls in pretix's names.
    static func cleaned(_ choice: EventChoice) -> EventChoice {
        EventChoice(id: choice.id, name: TerminalText.clean(choice.name), when: TerminalText.clean(choice.when), phase: choice.phase)
    }

    mutating func handleSetup(_ key: Key) -> [ConsoleRequest] {
        if key == .function(10) {
            openQuitPrompt(returningTo: screen)
            return []
        }
        switch screen {
        case .signIn:
            if key == .function(5), setupDefaults.demo, signInForm?.busy != true { return [.useDemoRoster] }
            guard var form = signInForm else { return [] }
            let outcome = form.handle(key)
            signInForm = form
            if case .submit(let credentials) = outcome {
                setupDefaults.email = credentials.email
                return [.signIn(credentials)]
            }
        case .pickEvent:
            if key == .function(8), eventPicker?.busy != true, eventPicker?.pretixServer == nil {
                // The wrong account: sign out, confirmed as everywhere (changes pending elsewhere
                // get the usual choice).
                signOutPrompt = SignOutPrompt(pending: status.pending)
                screen = .signOut
                return []
            }
            guard var picker = eventPicker else { return [] }
            let outcome = picker.handle(key)
            eventPicker = picker
            switch outcome {
            case .stay: break
            case .list(let range): return [.listEvents(range)]
            case .choose(let event): return [picker.pretixServer == nil ? .useEvent(event) : .usePretixList(event)]
            }
        default:
            break
        }
        return []
    }
}
