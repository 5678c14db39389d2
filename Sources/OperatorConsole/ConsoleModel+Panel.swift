import CheckInCore

/// The attendee panel: the result large and colour-coded (or the scan prompt), every text
/// wrapped to the panel's width and centred, the groups (staff note, title, detail, an order's
/// members, the badge) spaced out when the panel has the rows.
extension ConsoleModel {
    func drawPanel(into frame: inout ConsoleFrame, top: Int, height: Int) {
        let width = size.columns - 2
        var groups: [[(text: String, style: ConsoleFrame.Style)]] = []
        let background: ConsoleFrame.Style
        if let panel {
            // An attention panel is a welcome with the staff note in a band of its own colour.
            let tone: ResultPanel.Tone = panel.tone == .attention ? .welcome : panel.tone
            background = .panel(tone)
            if let note = panel.note {
                // The note is for staff: an attendee checking in alone is sent to them instead.
                let text = mode == .selfService ? "Please see a member of staff before you go in" : note
                groups.append(TerminalText.wrap(text, width: width, lines: 2).map { ($0, .panel(.attention)) })
            }
            groups.append(TerminalText.wrap(panel.title, width: width, lines: 2).map { ($0, background) })
            if !panel.detail.isEmpty { groups.append(TerminalText.wrap(panel.detail, width: width, lines: 2).map { ($0, background) }) }
            if !panel.members.isEmpty { groups.append(panel.members.map { (TerminalText.fit($0, width: width), background) }) }
            if let badge = panel.badge { groups.append([(TerminalText.fit(badge, width: width), background)]) }
        } else {
            background = .prompt
            let exit = direction == .exit
            groups.append([(exit ? "Leaving? Scan your ticket" : "Scan your ticket", exit ? .panel(.farewell) : .prompt)])
            groups.append([(mode == .selfService ? "Hold the QR code in front of the camera" : "or type the code and press Enter", .prompt)])
        }
        for row in top..<(top + height) { frame.fill(row, "", background) }
        let lines = Self.arrange(groups, height: height)
        let first = top + max(0, (height - lines.count) / 2)
        for (offset, line) in lines.enumerated() where !line.text.isEmpty {
            frame.fill(first + offset, line.text, line.style, centered: true)
        }
    }

    /// The groups' rows with a blank row between groups when `height` allows; else without;
    /// a list too long for the panel (an order's members) ends with how many more there are.
    static func arrange(_ groups: [[(text: String, style: ConsoleFrame.Style)]], height: Int) -> [(text: String, style: ConsoleFrame.Style)] {
        var groups = groups
        let total = groups.reduce(0) { $0 + $1.count }
        if total > height, let longest = groups.indices.max(by: { groups[$0].count < groups[$1].count }), groups[longest].count > 2 {
            let keep = max(1, groups[longest].count - (total - height) - 1)
            let hidden = groups[longest].count - keep
            let style = groups[longest][0].style
            groups[longest] = Array(groups[longest].prefix(keep)) + [("+\(hidden) more (F3 details)", style)]
        }
        let rows = groups.reduce(0) { $0 + $1.count }
        let spaced = rows + groups.count - 1 <= height
        var lines: [(text: String, style: ConsoleFrame.Style)] = []
        for (index, group) in groups.enumerated() {
            if spaced, index > 0 { lines.append(("", group[0].style)) }
            lines += group
        }
        return Array(lines.prefix(height))
    }
}
