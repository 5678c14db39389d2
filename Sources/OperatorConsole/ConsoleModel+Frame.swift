import CheckInCore

/// The operator screen, laid out for any size from 60×16 up, and complete at 80×24: the title
/// and counts on top, the attendee panel, the open screen, then the fault, status and key rows
/// at the bottom. Nothing the staff need is cut: long text wraps by ``TerminalText/wrap(_:width:lines:more:)``
/// and what a short terminal cannot hold is abbreviated by that rule and shown whole on the
/// details screen (F3). The attendee panel gives up rows first when the open screen needs them.
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
        drawTitle(into: &frame, clock: clock)
        if screen == .diagnostic || (screen == .confirmQuit && diagnostic != nil) {
            drawDiagnostic(into: &frame)
            return frame
        }
        if isSettingUp || (screen == .confirmQuit && [.signIn, .pickEvent, .download].contains(quitReturn)) {
            drawSetup(into: &frame, now: now)
            return frame
        }

        let bottom = bottomRows(keys: keyItems, separator: "  ", now: now)
        let bottomTop = rows - bottom.count
        for (offset, row) in bottom.enumerated() { frame.fill(bottomTop + offset, row.text, row.style) }

        let panelTop = 2
        let messages = messageLines()
        let largest = bottomTop - panelTop - 1 - messages.lines.count
        // The attendee panel: a third of the screen, less when the open screen needs the rows.
        let preferred = max(6, rows / 3)
        // The details screen has the last result in full: it may take the panel's rows.
        let smallest = screen == .details ? 0 : screen == .idle && staleQuestion == nil ? 6 : 4
        let wanted = body(room: max(0, largest - smallest))
        let spare = largest - wanted.lines.count - (wanted.wantsMore ? 3 : 0)
        let panelHeight = max(smallest, min(preferred, spare))
        drawPanel(into: &frame, top: panelTop, height: panelHeight)

        var row = panelTop + panelHeight + 1
        frame.place(messages, from: row, before: bottomTop)
        row += messages.lines.count
        frame.place(body(room: max(0, bottomTop - row)), from: row, before: bottomTop)
        return frame
    }

    private func drawTitle(into frame: inout ConsoleFrame, clock: String) {
        let columns = size.columns
        let modeText = mode == .selfService ? "SELF-SERVICE" : "operator"
        // An exit station says so on every screen, in the attendee's colour for "leaving".
        if direction == .exit {
            frame.fill(0, " EXIT · \(status.stationName) · \(modeText) · leaving guests scan here", .panel(.farewell))
        } else {
            frame.fill(0, " Check-in · \(status.stationName) · \(modeText)", .bar)
        }
        if !clock.isEmpty { frame.put(0, max(0, columns - TerminalText.width(clock) - 1), clock, direction == .exit ? .panel(.farewell) : .bar) }
        if mode == .operatorMode, !isSettingUp, screen != .diagnostic, let counts = status.counts {
            let text = TerminalText.clean(counts)
            frame.put(1, max(0, columns - TerminalText.width(text) - 1), text, .bold)
        }
    }

    /// The keys of the operator screens, all of them (the bar takes two rows at 80 columns).
    var keyItems: [String] {
        guard mode == .operatorMode else { return ["Staff: press any function key for the PIN"] }
        return ["F1 Help"] + (offersSearch ? ["F2 Search"] : []) + ["F3 Details", "F4 Walk-in", "F5 Reprint", "F6 Undo", "F7 Sync", "F8 Sign out",
                "F9 Self-service", "F10 Quit", "F11 Refused uploads", "F12 Entry/Exit"]
    }

    /// The bottom rows, top to bottom: the most urgent fault with its fix, the status line's
    /// parts, the keys (`keys` packed with `separator`).
    func bottomRows(keys: [String], separator: String, now: Double) -> [(text: String, style: ConsoleFrame.Style)] {
        let width = size.columns - 2
        var rows: [(text: String, style: ConsoleFrame.Style)] = []
        if let fault = status.fault {
            // A printer fault flashes (every other second) so staff who never read the status line see it.
            let style: ConsoleFrame.Style = !status.printerAlert || Int(now) % 2 == 0 ? .alert : .bold
            rows += Self.faultRows(fault, width: width, limit: size.rows >= 30 ? 4 : 3).map { (" " + $0, style) }
        }
        rows += Self.limited(TerminalText.pack(status.parts, width: width, separator: " · "), width: width, limit: 3).map { (" " + $0, .normal) }
        rows += TerminalText.pack(keys, width: width, separator: separator).map { (" " + $0, .bar) }
        return rows
    }

    /// "Badge printing is paused (auditor paused) → resume the queue (cupsenable badge)" on one
    /// row when it fits, else the fault's words, then "→ " and the fix on rows of their own.
    static func faultRows(_ fault: StationFault, width: Int, limit: Int) -> [String] {
        let words = TerminalText.clean(fault.words)
        guard let fix = fault.fix.map(TerminalText.clean), !fix.isEmpty else { return TerminalText.wrap(words, width: width, lines: limit, more: detailsHint) }
        let one = words + " → " + fix
        if TerminalText.width(one) <= width { return [one] }
        let head = TerminalText.wrap(words, width: width, lines: max(1, limit - 1), more: detailsHint)
        let all = ConsoleBody.hanging("→ " + fix, firstWidth: width, restWidth: width - 2, limit: .max)
        let room = max(1, limit - head.count)
        var tail = Array(all.prefix(room))
        if all.count > room {
            let rest = all[(room - 1)...].joined(separator: " ")
            tail[room - 1] = TerminalText.fit(rest, width: (room == 1 ? width : width - 2) - TerminalText.width(detailsHint)) + detailsHint
        }
        let rows = head + tail.enumerated().map { $0.offset == 0 ? $0.element : "  " + $0.element }
        return rows
    }

    /// At most `limit` of `rows`, the last abbreviated by the wrapping rule when more were left out.
    static func limited(_ rows: [String], width: Int, limit: Int) -> [String] {
        guard rows.count > limit else { return rows }
        let rest = rows[(limit - 1)...].joined(separator: " · ")
        return rows.prefix(limit - 1) + [TerminalText.fit(rest, width: width - TerminalText.width(detailsHint)) + detailsHint]
    }

    /// Ends a row the wrapping rule abbreviated: the whole text is on the details screen.
    static let detailsHint = " (F3 details)"

    /// The banner, a sign-out under way and the notice, each wrapped on at most two rows.
    func messageLines() -> ConsoleBody {
        var lines = ConsoleBody()
        let columns = size.columns
        if let banner { lines.wrapped(banner, .bold, columns: columns, limit: 2) }
        if let signingOut { lines.wrapped(signingOut.words(hub: status.hub), .bold, columns: columns, indent: 2, limit: 2) }
        if let notice { lines.wrapped(notice, .alert, columns: columns, indent: 2, limit: 2) }
        return lines
    }
}
