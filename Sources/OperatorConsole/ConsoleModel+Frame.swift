import CheckInCore

extension ConsoleModel {
    /// The screen for the model's state and size. `clock` is the wall-clock text for the title bar.
    public func frame(clock: String = "", now: Double = 0) -> ConsoleFrame {
        var frame = ConsoleFrame(size: size)
        let rows = size.rows, columns = size.columns
        if size.isTooSmall {
            frame.put(rows / 2 - 1, 0, TerminalText.center("Terminal too small", width: columns), .alert)
            frame.put(rows / 2, 0, TerminalText.center("need \(TerminalSize.minimum.columns)×\(TerminalSize.minimum.rows), have \(columns)×\(rows)", width: columns), .alert)
            return frame
        }
        let modeText = mode == .selfService ? "SELF-SERVICE" : "operator"
        // An exit station says so on every screen, in the attendee's colour for "leaving".
        if direction == .exit {
            frame.fill(0, " EXIT · \(status.stationName) · \(modeText) · leaving guests scan here", .panel(.farewell))
        } else {
            frame.fill(0, " Check-in · \(status.stationName) · \(modeText)", .bar)
        }
        if !clock.isEmpty { frame.put(0, max(0, columns - TerminalText.width(clock) - 1), clock, direction == .exit ? .panel(.farewell) : .bar) }
        if mode == .operatorMode, !isSettingUp, let counts = status.counts {
            let text = TerminalText.clean(counts)
            frame.put(1, max(0, columns - TerminalText.width(text) - 1), text, .bold)
        }

        if screen == .diagnostic || (screen == .confirmQuit && diagnostic != nil) {
            drawDiagnostic(into: &frame)
            return frame
        }
        if isSettingUp || (screen == .confirmQuit && [.signIn, .pickEvent, .download].contains(quitReturn)) {
            drawSetup(into: &frame)
            return frame
        }

        // The attendee-facing panel: a third of the screen, at least five rows.
        let panelTop = 2
        let panelHeight = max(5, rows / 3)
        let middle = panelTop + panelHeight / 2 - 1
        if let panel {
            // An attention panel is a welcome with the staff note in a band of its own colour.
            let tone: ResultPanel.Tone = panel.tone == .attention ? .welcome : panel.tone
            for row in panelTop..<(panelTop + panelHeight) { frame.fill(row, "", .panel(tone)) }
            frame.fill(middle, panel.title, .panel(tone), centered: true)
            if !panel.detail.isEmpty { frame.fill(middle + 2, panel.detail, .panel(tone), centered: true) }
            if let badge = panel.badge, middle + 3 < panelTop + panelHeight {
                frame.fill(middle + 3, TerminalText.clean(badge), .panel(tone), centered: true)
            }
            if let note = panel.note {
                // The note is for staff: an attendee checking in alone is sent to them instead.
                let text = mode == .selfService ? "Please see a member of staff before you go in" : note
                frame.fill(max(panelTop, middle - 2), text, .panel(.attention), centered: true)
            }
        } else {
            for row in panelTop..<(panelTop + panelHeight) { frame.fill(row, "", .prompt) }
            frame.fill(middle, direction == .exit ? "Leaving? Scan your ticket" : "Scan your ticket",
                       direction == .exit ? .panel(.farewell) : .prompt, centered: true)
            frame.fill(middle + 2, mode == .selfService ? "Hold the QR code in front of the camera" : "or type the code and press Enter", .prompt, centered: true)
        }

        var row = panelTop + panelHeight + 1
        if let banner { frame.put(row, 1, banner, .bold); row += 1 }
        if let notice { frame.put(row, 1, notice, .alert); row += 1 }
        let bottom = status.fault == nil ? rows - 3 : rows - 4
        drawScreen(into: &frame, top: row, bottom: bottom)

        if let fault = status.fault {
            // A printer fault flashes (every other second) so staff who never read the status line see it.
            let flashOn = !status.printerAlert || Int(now) % 2 == 0
            frame.fill(rows - 3, " " + TerminalText.clean(fault), flashOn ? .alert : .bold)
        }
        frame.put(rows - 2, 0, status.text)
        if mode == .selfService {
            frame.fill(rows - 1, " Staff: press any function key for the PIN", .bar)
        } else {
            frame.fill(rows - 1, " F1 Help  F2 Search  F4 Walk-in  F5 Reprint  F6 Undo  F7 Sync  F8 Sign out  F9 Self-service  F10 Quit  F12 Entry/Exit", .bar)
        }
        return frame
    }

    private func drawScreen(into frame: inout ConsoleFrame, top: Int, bottom: Int) {
        let columns = size.columns
        switch screen {
        case .idle, .diagnostic:
            let label = "Code: "
            frame.put(top, 1, label, .bold)
            let shown = TerminalText.fit(String(input.suffix(columns - 10)), width: columns - label.count - 3)
            frame.put(top, 1 + label.count, shown)
            frame.cursor = (top, 1 + label.count + TerminalText.width(shown))
        case .search:
            let label = "Search: "
            frame.put(top, 1, label, .bold)
            let shown = TerminalText.fit(query, width: columns - label.count - 3)
            frame.put(top, 1 + label.count, shown)
            frame.cursor = (top, 1 + label.count + TerminalText.width(shown))
            if results.isEmpty {
                frame.put(top + 1, 3, query.isEmpty ? "Type a name, e-mail, company or code (accents optional)" : "No guest found")
            }
            let room = max(0, bottom - top - 1)
            let first = max(0, selected - room + 1)
            for (offset, guest) in results.dropFirst(first).prefix(room).enumerated() {
                let index = first + offset
                let state = guest.checkedIn.map { "in " + ResultPanel.clock($0.at, timeZone: .current) } ?? ""
                let nameWidth = max(12, columns / 3)
                let line = TerminalText.pad(guest.name, width: nameWidth) + " " + TerminalText.pad(guest.company, width: columns / 5) + " "
                    + TerminalText.pad(guest.code, width: 12) + " " + TerminalText.pad(guest.accessType, width: 10) + " " + state
                    + (guest.order.isEmpty ? "" : " · order " + guest.order)
                frame.put(top + 1 + offset, 1, (index == selected ? "▶ " : "  ") + line, index == selected ? .highlight : .normal, width: columns - 2)
            }
            let orderHint = results.indices.contains(selected) && !results[selected].order.isEmpty
                ? " · Ctrl-O whole order " + TerminalText.clean(results[selected].order) : ""
            frame.put(bottom, 1, "↑↓ choose · Enter check in\(orderHint) · F5 reprint badge · Esc back")
        case .walkIn:
            frame.put(top, 1, "Walk-in registration", .bold)
            let values = [draft.name, draft.email, draft.company,
                          "◀ " + (accessChoices.first { $0.id == draft.accessTypeID }?.name ?? "none") + " ▶"]
            for (index, name) in Self.walkInFields.enumerated() {
                let row = top + 1 + index
                frame.put(row, 3, name + ":", index == field ? .bold : .normal, width: 14)
                let value = TerminalText.fit(values[index], width: columns - 22)
                frame.put(row, 18, TerminalText.pad(value, width: columns - 21), index == field ? .highlight : .normal)
                if index == field && index < 3 { frame.cursor = (row, 18 + TerminalText.width(value)) }
            }
            frame.put(top + 6, 1, "Tab/↓ next field · ←→ access type · Enter on Access type registers, checks in and prints · Esc cancel")
        case .refusedUploads:
            frame.put(top, 1, "Uploads the hub refused (kept on this station, not counted at the hub)", .bold)
            if refusedUploads.isEmpty { frame.put(top + 1, 3, "None: every upload was accepted.") }
            let room = max(0, bottom - top - 1)
            for (offset, upload) in refusedUploads.suffix(room).enumerated() {
                let line = upload.at + "  " + TerminalText.pad(upload.what, width: max(12, columns / 3)) + "  " + upload.reason
                frame.put(top + 1 + offset, 1, line, .normal, width: columns - 2)
            }
            frame.put(bottom, 1, "Any key closes this list.")
        case .help:
            let lines = [
                "Type a code and press Enter (a keyboard scanner does the same).",
                "F1 / Ctrl-H  this help          F2 / Ctrl-F  search guests (name, e-mail, company, code)",
                "F3           type a code        F4 / Ctrl-W  register a walk-in",
                "F5 / Ctrl-R  reprint last badge F6           undo last check-in (audited)",
                "F7 / Ctrl-S  sync now           F8           sign out (F8 again confirms)",
                "F9 / Ctrl-L  self-service mode (staff PIN to leave)   F10  quit (F10 again confirms)",
                "F12          switch between recording entries and exits",
                "F11 / Ctrl-E uploads the hub refused, with the reasons",
                "T (now)      test the scanner: each scan's source and timing, nobody checked in",
                "In search: ↑↓ choose, Enter checks in, Ctrl-O checks in the guest's whole order.",
                "Esc cancels. Any key closes this help.",
            ]
            for (index, line) in lines.enumerated() where top + index <= bottom { frame.put(top + index, 1, line) }
        case .scannerTest:
            drawScannerTest(into: &frame, top: top, bottom: bottom)
        case .confirmQuit:
            frame.put(top, 1, "Quit the station? Scanning stops until it is started again.", .alert)
            frame.put(top + 1, 1, "F10 again = quit · any other key = keep running")
        case .signOut:
            let prompt = signOutPrompt ?? SignOutPrompt(pending: status.pending)
            frame.put(top, 1, "Sign out of the hub", .bold)
            frame.put(top + 1, 1, "\(prompt.pending) change\(prompt.pending == 1 ? " is" : "s are") not uploaded yet.", .alert)
            let choices: [(PendingChangesChoice, String)] = [
                (.wait, "Wait until they are uploaded, then sign out"),
                (.keep, "Keep them on this station; they upload at the next sign-in"),
                (.discard, "Discard them (they never reach the hub)"),
            ]
            for (offset, choice) in choices.enumerated() {
                let chosen = choice.0 == prompt.choice
                frame.put(top + 2 + offset, 3, (chosen ? "▶ " : "  ") + choice.1, chosen ? .highlight : .normal)
            }
            if prompt.choice == .discard {
                frame.put(top + 5, 3, "To discard, type the number of changes (\(prompt.pending)): " + prompt.typedCount, .bold)
            }
            frame.put(top + 6, 1, "←→ choose · F8 confirm · Esc cancel")
        case .staleBadges(let count):
            frame.put(top, 1, "Print \(count) waiting badge\(count == 1 ? "" : "s")?", .alert)
            frame.put(top + 1, 1, "They waited longer than the limit while the printer was down; their guests may have left.")
            frame.put(top + 2, 3, "A  print them all now, in order")
            frame.put(top + 3, 3, "O  print them on the other printer")
            frame.put(top + 4, 3, "C  cancel them (hand badges out at the desk)")
        case .signIn, .pickEvent, .download:
            break
        case .pin:
            frame.put(top, 1, "Staff PIN: " + String(repeating: "•", count: pinInput.count), .bold)
            frame.put(top + 1, 1, "Enter to confirm · Esc back to self-service")
            frame.cursor = (top, 12 + pinInput.count)
        }
    }

    private func drawDiagnostic(into frame: inout ConsoleFrame) {
        let rows = size.rows
        for row in 2..<(rows - 1) { frame.fill(row, "", .alert) }
        frame.fill(3, "Storage did not start — this station is not scanning", .alert, centered: true)
        guard let diagnostic else { return }
        var row = 5
        if let migration = diagnostic.migration { frame.put(row, 2, "Migration: \(migration)", .alert); row += 1 }
        frame.put(row, 2, "Error: \(diagnostic.error)", .alert); row += 2
        frame.put(row, 2, "Kept safe on this station: \(diagnostic.pendingCheckIns) pending check-in(s), \(diagnostic.guests) guest(s)", .alert); row += 2
        frame.put(row, 2, "Contact support. Do not delete the data directory.", .alert); row += 2
        if screen == .confirmQuit {
            frame.put(row, 2, "Quit the station? F10 again = quit · any other key = stay", .alert)
        }
        frame.fill(rows - 1, " F10 Quit", .bar)
    }
}

import Foundation
