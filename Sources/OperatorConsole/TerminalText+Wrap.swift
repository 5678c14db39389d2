/// Wrapping by the console's one rule for text wider than the screen: break between words (a
/// word wider than a line is broken where it must), keep at most `lines` rows, and end the last
/// kept row with `more` (default "…") when text was left out. What is left out is on the
/// details screen (F3), whole.
extension TerminalText {
    /// The cleaned text in rows of at most `width` columns.
    public static func wrap(_ raw: String, width: Int, lines limit: Int = .max, more: String = "…") -> [String] {
        guard width > 0, limit > 0 else { return [] }
        var rows: [String] = []
        var current = ""
        for word in clean(raw).split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            let candidate = current.isEmpty ? word : current + " " + word
            if self.width(candidate) <= width {
                current = candidate
                continue
            }
            if !current.isEmpty { rows.append(current) }
            current = word
            // A word wider than a row: as much as fits on each row.
            while self.width(current) > width {
                let (head, tail) = split(current, at: width)
                rows.append(head)
                current = tail
            }
        }
        if !current.isEmpty { rows.append(current) }
        guard rows.count > limit else { return rows }
        var kept = Array(rows.prefix(limit))
        let rest = rows[(limit - 1)...].joined(separator: " ")
        kept[limit - 1] = more == "…" ? fit(rest, width: width) : fit(rest, width: max(1, width - self.width(more))) + more
        return kept
    }

    /// Items (key names, status parts) packed into rows of at most `width` columns, joined by
    /// `separator`; an item is never split (one wider than a row is fitted alone).
    public static func pack(_ items: [String], width: Int, separator: String) -> [String] {
        var rows: [String] = []
        var current = ""
        for item in items.map(clean) where !item.isEmpty {
            let candidate = current.isEmpty ? item : current + separator + item
            if self.width(candidate) <= width {
                current = candidate
            } else {
                if !current.isEmpty { rows.append(current) }
                current = fit(item, width: width)
            }
        }
        if !current.isEmpty { rows.append(current) }
        return rows
    }

    /// The longest prefix of whole characters at most `width` columns wide, and the rest.
    private static func split(_ text: String, at width: Int) -> (String, String) {
        var head = ""
        var used = 0
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let w = self.width(String(character))
            if used + w > width, !head.isEmpty { break }
            head.append(character)
            used += w
            index = text.index(after: index)
        }
        return (head, String(text[index...]))
    }
}
