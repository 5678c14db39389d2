import CheckInCore

extension ConsoleModel {
    /// The set-up screens: the three steps on top, the step's form or list, its keys at the bottom.
    func drawSetup(into frame: inout ConsoleFrame, now: Double) {
        let rows = size.rows, columns = size.columns
        let step = screen == .confirmQuit ? quitReturn : screen
        let steps: [(ConsoleModel.Screen, String)] = [(.signIn, "1 Sign in"), (.pickEvent, "2 Choose the event"), (.download, "3 Download the roster")]
        var column = 1
        frame.put(2, column, "Set up:", .bold)
        column += 9
        for (screen, words) in steps {
            frame.put(2, column, screen == step ? "[\(words)]" : " \(words) ", screen == step ? .highlight : .normal)
            column += TerminalText.width(words) + 3
        }
        // A scan during set-up is still answered: its result shows here.
        if let panel { frame.fill(3, panel.title + (panel.detail.isEmpty ? "" : " — " + panel.detail), .panel(panel.tone)) }
        let top = 5
        var body = ConsoleBody()
        var keys: [String] = []
        switch step {
        case .signIn:
            keys = drawSignIn(into: &body)
        case .pickEvent:
            keys = drawEventPicker(into: &body, room: rows - top - 6)
        case .download:
            keys = drawDownload(into: &body)
        default:
            break
        }
        let bottom = bottomRows(keys: keys, separator: " · ", now: now)
        let bottomTop = rows - bottom.count
        for (offset, row) in bottom.enumerated() { frame.fill(bottomTop + offset, row.text, row.style) }
        var messages = ConsoleBody()
        if screen == .confirmQuit {
            messages.wrapped("Quit the station? F10 again = quit · any other key = back to set-up", .alert, columns: columns, limit: 2)
        } else if let notice {
            messages.wrapped(notice, .alert, columns: columns, limit: 2)
        }
        let messagesTop = bottomTop - messages.lines.count
        frame.place(body, from: top, before: messagesTop)
        frame.place(messages, from: messagesTop, before: bottomTop)
    }

    private func drawSignIn(into body: inout ConsoleBody) -> [String] {
        guard let form = signInForm else { return ["F10 Quit"] }
        let columns = size.columns
        body.add("Sign in to the hub with your staff account", .bold)
        body.add("")
        let width = columns - 16
        for field in form.fields {
            let focused = field == form.field && !form.busy
            let (label, value): (String, String) = switch field {
            case .hub: ("Hub", form.hub)
            case .email: ("E-mail", form.email)
            case .password: ("Password", form.hasPassword ? SignInForm.mask : "")
            }
            let shown = TerminalText.fit(value, width: width - 2)
            body.add(label + ":", at: 3, focused ? .bold : .normal, width: 11)
            body.addToLastRow(TerminalText.pad(shown, width: width), at: 14, focused ? .highlight : .normal)
            if focused { body.cursor = (body.lines.count - 1, 14 + TerminalText.width(shown)) }
        }
        if form.hubFixed { body.wrapped("Hub: \(form.hub) (from the configuration)", at: 3, columns: columns, indent: 5) }
        body.wrapped("Or scan the pretix device QR code (pretix: Organizer → Devices → Connect a device)", at: 3, columns: columns, indent: 2)
        body.add("")
        if form.busy {
            body.add("Signing in…", at: 3, .bold)
        } else if let problem = form.problem {
            body.wrapped(problem, at: 3, .alert, columns: columns, limit: 3)
        }
        return ["Tab/↓ next field", "Enter signs in"] + (setupDefaults.demo ? ["F5 demo roster, no hub"] : []) + ["F10 Quit"]
    }

    private func drawEventPicker(into body: inout ConsoleBody, room: Int) -> [String] {
        guard let picker = eventPicker else { return ["F10 Quit"] }
        let columns = size.columns
        if let server = picker.pretixServer { return drawPretixLists(picker, server: server, into: &body, room: room) }
        body.add("Choose the event", .bold)
        if !picker.signedInAs.isEmpty { body.wrapped("Signed in as " + picker.signedInAs, at: 3, columns: columns, indent: 2) }
        var tabs = ""
        for (range, words) in [(EventRange.today, "Today"), (.week, "This week"), (.all, "All")] {
            tabs += range == picker.range ? "[\(words)] " : " \(words)  "
        }
        body.add(tabs, at: 3)
        body.add("")
        if picker.busy {
            body.add("Preparing the event…", at: 3, .bold)
        } else if picker.loading {
            body.add("Asking the hub…", at: 3)
        } else if let problem = picker.problem {
            body.wrapped(problem, at: 3, .alert, columns: columns, limit: 2)
        } else if picker.events.isEmpty {
            let words = switch picker.range {
            case .today: "No events today: → for this week's or all events"
            case .week: "No events this week: → for all events"
            case .all: "No events for this account: ask the organizer for access"
            }
            body.wrapped(words, at: 3, columns: columns)
        } else if picker.selected == nil {
            body.wrapped("Every event listed has ended: ↑↓ to choose one anyway, → for later ones", at: 3, columns: columns)
        }
        if !picker.busy && !picker.loading { drawChoices(picker, into: &body, room: room) }
        return ["←→ today/week/all", "↑↓ choose", "Enter use this event", "F5 refresh", "F8 sign out", "F10 Quit"]
    }

    /// The check-in lists a new pretix device may use: this door's is chosen once.
    private func drawPretixLists(_ picker: EventPicker, server: String, into body: inout ConsoleBody, room: Int) -> [String] {
        let columns = size.columns
        body.add("Choose this door's check-in list", .bold)
        body.wrapped("This station is now a device of pretix at \(server)", at: 3, columns: columns, indent: 2)
        body.add("")
        if picker.busy {
            body.add("Connecting to the list…", at: 3, .bold)
        } else if let problem = picker.problem {
            body.wrapped(problem, at: 3, .alert, columns: columns, limit: 2)
        } else if picker.events.isEmpty {
            body.wrapped("pretix lists no check-in list for this device: ask the organizer to give it an event", at: 3, columns: columns)
        }
        if !picker.busy { drawChoices(picker, into: &body, room: room) }
        return ["↑↓ choose", "Enter use this list", "F10 Quit"]
    }

    /// The picker's rows around the chosen one: name, dates, and whether it is on now.
    private func drawChoices(_ picker: EventPicker, into body: inout ConsoleBody, room: Int) {
        let columns = size.columns
        let list = max(1, room - body.lines.count)
        let selected = picker.selected ?? 0
        let first = max(0, selected - list + 1)
        // The dates and the mark in full; the name gets the rest of the row.
        let whenWidth = picker.events.map { TerminalText.width($0.when) }.max() ?? 0
        let markWidth = picker.events.map { TerminalText.width($0.phase.mark) }.max() ?? 0
        let nameWidth = max(12, columns - 4 - 2 - whenWidth - (markWidth > 0 ? markWidth + 2 : 0) - 1)
        for (offset, event) in picker.events.dropFirst(first).prefix(list).enumerated() {
            let index = first + offset
            let chosen = index == picker.selected
            var line = TerminalText.pad(event.name, width: nameWidth) + "  " + TerminalText.pad(event.when, width: whenWidth)
            if markWidth > 0 { line += "  " + event.phase.mark }
            body.add((chosen ? "▶ " : "  ") + line, chosen ? .highlight : .normal, width: columns - 2)
        }
    }

    private func drawDownload(into body: inout ConsoleBody) -> [String] {
        guard let download else { return ["F10 Quit"] }
        let columns = size.columns
        body.wrapped("Downloading the roster of " + download.eventName, .bold, columns: columns, limit: 2)
        body.add("")
        let barWidth = max(10, min(50, columns - 40))
        if let total = download.total, total > 0 {
            let filled = min(barWidth, download.done * barWidth / total)
            body.add("[" + String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled) + "] "
                     + "\(download.done) of \(total) guests", at: 3)
        } else {
            body.add("\(download.done) guests so far", at: 3)
        }
        body.add("")
        if let problem = download.problem {
            body.wrapped("Paused: " + problem, at: 3, .alert, columns: columns, indent: 2, limit: 3)
            body.add("It resumes by itself when the server answers again.", at: 3)
        } else {
            body.add("Scanning starts when the whole roster is on this station.", at: 3)
        }
        return ["F10 Quit (the download resumes at the next start)"]
    }
}
