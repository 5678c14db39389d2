import CheckInCore
import Foundation

/// The open screen's rows below the attendee panel, within `room` rows.
extension ConsoleModel {
    func body(room: Int) -> ConsoleBody {
        let columns = size.columns
        var body = ConsoleBody()
        switch screen {
        case .idle, .diagnostic:
            codeLine(into: &body)
            if mode == .operatorMode, let unpaidQuestion { body.wrapped(unpaidQuestion.prompt, .alert, columns: columns, limit: 3) }
            if mode == .operatorMode, let staleQuestion { question(staleQuestion, into: &body) }
        case .search:
            searchBody(into: &body, room: room)
        case .walkIn:
            walkInBody(into: &body)
        case .questions:
            questionsBody(into: &body)
        case .refusedUploads:
            body.wrapped("Uploads the hub refused (kept on this station, not counted at the hub)", .bold, columns: columns)
            if refusedUploads.isEmpty { body.add("None: every upload was accepted.", at: 3) }
            var entries: [[String]] = refusedUploads.map { upload in
                ConsoleBody.hanging(upload.at + "  " + upload.what + " — " + upload.reason, firstWidth: columns - 2, restWidth: columns - 9,
                                    limit: 2)
            }
            // The newest that fit, above the closing hint.
            while entries.reduce(0, { $0 + $1.count }) > max(0, room - body.lines.count - 1), !entries.isEmpty { entries.removeFirst() }
            for entry in entries {
                for (index, row) in entry.enumerated() { body.add(row, at: index == 0 ? 1 : 8) }
            }
            body.add("Any key closes this list.")
            body.wantsMore = true
        case .help:
            helpBody(into: &body)
        case .details:
            detailsBody(into: &body)
        case .scannerTest:
            drawScannerTest(into: &body)
        case .confirmQuit:
            body.wrapped("Quit the station? Scanning stops until it is started again.", .alert, columns: columns)
            body.add("F10 again = quit · any other key = keep running")
        case .signOut:
            codeLine(into: &body)
            signOutBody(into: &body)
        case .signIn, .pickEvent, .download:
            break
        case .pin:
            body.add("Staff PIN: " + String(repeating: "•", count: pinInput.count), .bold)
            body.cursor = (0, 12 + pinInput.count)
            body.add("Enter to confirm · Esc back to self-service")
        }
        return body
    }

    /// "Code: " and what is typed: where every typed character goes on the scan screen and under
    /// the prompts.
    func codeLine(into body: inout ConsoleBody) {
        let label = "Code: "
        let shown = TerminalText.fit(String(input.suffix(size.columns - 10)), width: size.columns - label.count - 3)
        body.add(label, .bold)
        body.addToLastRow(shown, at: 1 + label.count)
        body.cursor = (body.lines.count - 1, 1 + label.count + TerminalText.width(shown))
    }

    /// The question about badges that waited too long: its choices as words to type, so no key
    /// of a code typed by hand answers it.
    func question(_ question: StaleBadgesQuestion, into body: inout ConsoleBody) {
        let columns = size.columns
        let one = question.count == 1
        body.wrapped(question.title + " \(one ? "It" : "They") waited too long while the printer was down; \(one ? "its guest" : "their guests") may have left.",
                     .alert, columns: columns, limit: 2)
        if let note = question.note { body.wrapped(note, .bold, columns: columns, limit: 2) }
        body.wrapped("Type a word, then Enter (anything else typed is a ticket code):", columns: columns)
        let wordWidth = question.choices.map { TerminalText.width($0.word) }.max() ?? 0
        for choice in question.choices {
            body.add(TerminalText.pad(choice.word, width: wordWidth) + "   " + choice.meaning, at: 3, .bold)
        }
    }

    func searchBody(into body: inout ConsoleBody, room: Int) {
        let columns = size.columns
        let label = "Search: "
        let shown = TerminalText.fit(query, width: columns - label.count - 3)
        body.add(label, .bold)
        body.addToLastRow(shown, at: 1 + label.count)
        body.cursor = (0, 1 + label.count + TerminalText.width(shown))
        let orderHint = results.indices.contains(selected) && !results[selected].order.isEmpty
            ? " · Ctrl-O whole order " + TerminalText.clean(results[selected].order) : ""
        let hint = TerminalText.pack(["↑↓ choose", "Enter check in\(orderHint)", "F5 reprint badge", "Esc back"], width: columns - 2, separator: " · ")
        if results.isEmpty {
            body.wrapped(query.isEmpty ? "Type a name, e-mail, company or code (accents optional)" : "No guest found", at: 3, columns: columns)
        }
        let list = max(0, room - body.lines.count - hint.count)
        let first = max(0, selected - list + 1)
        let columnsOfRows = SearchColumns(results, width: columns - 4)
        for (offset, guest) in results.dropFirst(first).prefix(list).enumerated() {
            let index = first + offset
            body.add((index == selected ? "▶ " : "  ") + columnsOfRows.row(guest), index == selected ? .highlight : .normal, width: columns - 2)
        }
        // The hint at the foot of the space.
        while body.lines.count < room - hint.count { body.add("") }
        for row in hint { body.add(row) }
        body.wantsMore = true
    }

    func walkInBody(into body: inout ConsoleBody) {
        let columns = size.columns
        body.add("Walk-in registration", .bold)
        let values = [draft.name, draft.email, draft.company,
                      "◀ " + (accessChoices.first { $0.id == draft.accessTypeID }?.name ?? "choose one") + " ▶"]
        for (index, name) in Self.walkInFields.enumerated() {
            let value = TerminalText.fit(values[index], width: columns - 22)
            body.add(name + ":", at: 3, index == field ? .bold : .normal, width: 14)
            body.addToLastRow(TerminalText.pad(value, width: columns - 21), at: 18, index == field ? .highlight : .normal)
            if index == field && index < 3 { body.cursor = (body.lines.count - 1, 18 + TerminalText.width(value)) }
        }
        body.add("")
        for row in TerminalText.pack(["Tab/↓ next field", "←→ access type", "Enter on Access type registers, checks in and prints", "Esc cancel"],
                                     width: columns - 2, separator: " · ") {
            body.add(row)
        }
    }

    func signOutBody(into body: inout ConsoleBody) {
        let columns = size.columns
        let prompt = signOutPrompt ?? SignOutPrompt(pending: status.pending)
        body.add("Sign out of the hub", .bold)
        guard prompt.pending > 0 else {
            body.wrapped("Nothing waits for the hub. Signing out stops scanning here: this station's roster copy is removed, and signing in again needs a staff password.",
                         .alert, columns: columns, limit: 3)
            body.add("F8 again = sign out · Esc = stay signed in")
            return
        }
        body.add("\(prompt.pending) change\(prompt.pending == 1 ? " is" : "s are") not uploaded yet.", .alert)
        let choices: [(PendingChangesChoice, String)] = [
            (.wait, "Wait until they are uploaded, then sign out"),
            (.keep, "Keep them on this station; they upload at the next sign-in"),
            (.discard, "Discard them (they never reach the hub)"),
        ]
        for choice in choices {
            let chosen = choice.0 == prompt.choice
            body.add((chosen ? "▶ " : "  ") + choice.1, at: 3, chosen ? .highlight : .normal)
        }
        if prompt.choice == .discard {
            body.wrapped("To discard, type the number of changes (\(prompt.pending)) on the code line, then F8", at: 3, .bold, columns: columns)
        }
        body.add("←→ choose · F8 confirm · Esc cancel")
    }
}
