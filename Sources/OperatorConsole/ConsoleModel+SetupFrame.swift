import CheckInCore

extension ConsoleModel {
    /// The set-up screens: the three steps on top, the step's form or list, its keys at the bottom.
    func drawSetup(into frame: inout ConsoleFrame) {
        let rows = size.rows, columns = size.columns
        let step = screen == .confirmQuit ? quitReturn : screen
        let steps: [(ConsoleModel.Screen, String)] = [(.signIn, "1 Sign in"), (.pickEvent, "2 Choose the event"), (.download, "3 Download the roster")]
        var column = 1
        frame.put(2, column, "Set up this station:", .bold)
        column += 22
        for (screen, words) in steps {
            frame.put(2, column, screen == step ? "[\(words)]" : " \(words) ", screen == step ? .highlight : .normal)
            column += TerminalText.width(words) + 3
        }
        // A scan during set-up is still answered: its result shows here.
        if let panel { frame.fill(3, panel.title + (panel.detail.isEmpty ? "" : " — " + panel.detail), .panel(panel.tone)) }
        let top = 5
        let bottom = rows - 3
        var keys = ""
        switch step {
        case .signIn:
            keys = drawSignIn(into: &frame, top: top)
        case .pickEvent:
            keys = drawEventPicker(into: &frame, top: top, bottom: bottom)
        case .download:
            keys = drawDownload(into: &frame, top: top)
        default:
            break
        }
        if let notice { frame.put(bottom, 1, notice, .alert) }
        if screen == .confirmQuit {
            frame.put(bottom, 1, "Quit the station? F10 again = quit · any other key = back to set-up", .alert)
        }
        frame.put(rows - 2, 0, status.text)
        frame.fill(rows - 1, " " + keys, .bar)
        _ = columns
    }

    private func drawSignIn(into frame: inout ConsoleFrame, top: Int) -> String {
        guard let form = signInForm else { return "F10 Quit" }
        frame.put(top, 1, "Sign in to the hub with your staff account", .bold)
        var row = top + 2
        let width = size.columns - 16
        for field in form.fields {
            let focused = field == form.field && !form.busy
            let (label, value): (String, String) = switch field {
            case .hub: ("Hub", form.hub)
            case .email: ("E-mail", form.email)
            case .password: ("Password", form.hasPassword ? SignInForm.mask : "")
            }
            frame.put(row, 3, label + ":", focused ? .bold : .normal, width: 11)
            let shown = TerminalText.fit(value, width: width - 2)
            frame.put(row, 14, TerminalText.pad(shown, width: width), focused ? .highlight : .normal)
            if focused { frame.cursor = (row, 14 + TerminalText.width(shown)) }
            row += 1
        }
        if form.hubFixed { frame.put(row, 3, "Hub: \(form.hub) (from the configuration)"); row += 1 }
        row += 1
        if form.busy {
            frame.put(row, 3, "Signing in…", .bold)
        } else if let problem = form.problem {
            frame.put(row, 3, problem, .alert)
        }
        return "Tab/↓ next field · Enter signs in" + (setupDefaults.demo ? " · F5 demo roster, no hub" : "") + " · F10 Quit"
    }

    private func drawEventPicker(into frame: inout ConsoleFrame, top: Int, bottom: Int) -> String {
        guard let picker = eventPicker else { return "F10 Quit" }
        frame.put(top, 1, "Choose the event" + (picker.signedInAs.isEmpty ? "" : " — signed in as " + picker.signedInAs), .bold)
        var column = 3
        for (range, words) in [(EventRange.today, "Today"), (.week, "This week"), (.all, "All")] {
            frame.put(top + 1, column, range == picker.range ? "[\(words)]" : " \(words) ", range == picker.range ? .highlight : .normal)
            column += TerminalText.width(words) + 4
        }
        let listTop = top + 3
        if picker.busy {
            frame.put(listTop, 3, "Preparing the event…", .bold)
        } else if picker.loading {
            frame.put(listTop, 3, "Asking the hub…")
        } else if let problem = picker.problem {
            frame.put(listTop, 3, problem, .alert)
        } else if picker.events.isEmpty {
            let words = switch picker.range {
            case .today: "No events today: → for this week's or all events"
            case .week: "No events this week: → for all events"
            case .all: "No events for this account: ask the organizer for access"
            }
            frame.put(listTop, 3, words)
        }
        if !picker.busy && !picker.loading {
            let room = max(0, bottom - listTop - 1)
            let first = max(0, picker.selected - room + 1)
            let nameWidth = max(20, size.columns / 2)
            for (offset, event) in picker.events.dropFirst(first).prefix(room).enumerated() {
                let index = first + offset
                let line = TerminalText.pad(event.name, width: nameWidth) + "  " + event.when
                frame.put(listTop + (picker.problem == nil ? 0 : 1) + offset, 1, (index == picker.selected ? "▶ " : "  ") + line,
                          index == picker.selected ? .highlight : .normal, width: size.columns - 2)
            }
        }
        return "←→ today/week/all · ↑↓ choose · Enter use this event · F5 refresh · F8 sign out · F10 Quit"
    }

    private func drawDownload(into frame: inout ConsoleFrame, top: Int) -> String {
        guard let download else { return "F10 Quit" }
        frame.put(top, 1, "Downloading the roster of " + download.eventName, .bold)
        let barWidth = max(10, min(50, size.columns - 40))
        var line = ""
        if let total = download.total, total > 0 {
            let filled = min(barWidth, download.done * barWidth / total)
            line = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled) + "] "
                + "\(download.done) of \(total) guests"
        } else {
            line = "\(download.done) guests so far"
        }
        frame.put(top + 2, 3, line)
        if let problem = download.problem {
            frame.put(top + 4, 3, "Paused: " + problem, .alert)
            frame.put(top + 5, 3, "It resumes by itself when the hub answers.")
        } else {
            frame.put(top + 4, 3, "Scanning starts when the whole roster is on this station.")
        }
        return "F10 Quit (the download resumes at the next start)"
    }
}
