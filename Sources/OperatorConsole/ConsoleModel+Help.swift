import CheckInCore

/// The help (F1) and the details screen (F3): the keys, and the full text of everything the
/// other screens shorten.
extension ConsoleModel {
    /// Each key with what it does, in rows that fit 80 columns.
    static let helpLines: [(keys: String, words: String)] = [
        ("", "Type a code and Enter (a scanner does the same); Esc clears the code line."),
        ("F1 again", "test the scanner: shows each scan, checks nobody in"),
        ("F2 Ctrl-F", "search: ↑↓ choose, Enter checks in, Ctrl-O the whole order"),
        ("F3 Ctrl-D", "details: each fault with its fix, the status, the last result"),
        ("F4 Ctrl-W", "walk-in · F5 Ctrl-R reprint last badge · F6 undo last check-in"),
        ("F7 Ctrl-S", "sync now · F8 sign out (asks first: wait, keep or discard)"),
        ("F9 Ctrl-L", "self-service (PIN to leave) · F10 quit (F10 again confirms)"),
        ("F11 Ctrl-E", "uploads the hub refused · F12 switch entries ⇄ exits"),
        ("", "Any key closes this help; typed characters go to the code line."),
    ]

    func helpBody(into body: inout ConsoleBody) {
        let columns = size.columns
        for line in Self.helpLines {
            if line.keys.isEmpty {
                body.wrapped(line.words, columns: columns, limit: 2)
            } else {
                body.add(line.keys, at: 1, .bold, width: 11)
                let rows = TerminalText.wrap(line.words, width: columns - 14, lines: 2)
                for (index, row) in rows.enumerated() {
                    if index == 0 { body.addToLastRow(row, at: 13) } else { body.add(row, at: 13) }
                }
            }
        }
    }

    /// Everything in full: each fault with its fix, every part of the status line, the last
    /// message and the last result.
    func detailsBody(into body: inout ConsoleBody) {
        let columns = size.columns
        body.add("Details — in full (any key returns)", .bold)
        if status.faults.isEmpty {
            body.add("No fault: everything works.", at: 3)
        }
        for fault in status.faults {
            body.wrapped(fault.words, at: 3, .alert, columns: columns, indent: 2)
            if let fix = fault.fix { body.wrapped("→ " + fix, at: 5, columns: columns, indent: 2) }
        }
        body.wrapped("Status: " + status.parts.joined(separator: " · "), at: 3, columns: columns, indent: 2)
        if let notice { body.wrapped("Last message: " + notice, at: 3, columns: columns, indent: 2) }
        if let panel {
            let text = ([panel.title, panel.detail, panel.badge ?? "", panel.note ?? ""] + panel.members).filter { !$0.isEmpty }
            body.wrapped("Last result: " + text.joined(separator: " · "), at: 3, columns: columns, indent: 2)
        }
    }
}
