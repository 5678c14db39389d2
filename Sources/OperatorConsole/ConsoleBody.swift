/// The rows of the open screen below the attendee panel, built before they are placed: the
/// frame sizes the panel so that they fit, then draws them from the top of the space left.
struct ConsoleBody {
    /// Text at a column of a row, fitted to `width` columns (the rest of the row by default).
    struct Run {
        var column: Int
        var text: String
        var style: ConsoleFrame.Style
        var width: Int?
    }

    /// One row each, with its runs.
    var lines: [[Run]] = []
    /// The text cursor: the line index and column, when a field is being typed into.
    var cursor: (line: Int, column: Int)?
    /// Rows the screen can use beyond its lines (a list that scrolls): the panel shrinks for
    /// them down to its smallest.
    var wantsMore = false

    /// A new row holding `text` at `column`.
    mutating func add(_ text: String, at column: Int = 1, _ style: ConsoleFrame.Style = .normal, width: Int? = nil) {
        lines.append([Run(column: column, text: text, style: style, width: width)])
    }

    /// More text on the last row (a form field's value beside its label).
    mutating func addToLastRow(_ text: String, at column: Int, _ style: ConsoleFrame.Style = .normal, width: Int? = nil) {
        guard !lines.isEmpty else { return add(text, at: column, style, width: width) }
        lines[lines.count - 1].append(Run(column: column, text: text, style: style, width: width))
    }

    /// `text` wrapped to the row's width (from `column`, one column left free on the right),
    /// following rows indented by `indent`; at most `limit` rows, the last abbreviated by the
    /// wrapping rule (the details screen has it all).
    mutating func wrapped(_ text: String, at column: Int = 1, _ style: ConsoleFrame.Style = .normal, columns: Int, indent: Int = 0,
                          limit: Int = .max) {
        let width = max(1, columns - column - 1)
        for (index, row) in Self.hanging(text, firstWidth: width, restWidth: max(1, width - indent), limit: limit).enumerated() {
            add(row, at: column + (index == 0 ? 0 : indent), style)
        }
    }

    /// Rows of `text` where the first may be `firstWidth` wide and the others `restWidth`.
    static func hanging(_ text: String, firstWidth: Int, restWidth: Int, limit: Int) -> [String] {
        let head = TerminalText.wrap(text, width: firstWidth)
        guard head.count > 1, limit > 1 else { return TerminalText.wrap(text, width: firstWidth, lines: limit) }
        let rest = head.dropFirst().joined(separator: " ")
        return [head[0]] + TerminalText.wrap(rest, width: restWidth, lines: limit - 1)
    }
}

extension ConsoleFrame {
    /// Draws `body`'s rows from `row` on, stopping before row `limit`.
    mutating func place(_ body: ConsoleBody, from row: Int, before limit: Int) {
        for (index, line) in body.lines.enumerated() where row + index < limit {
            for run in line { put(row + index, run.column, run.text, run.style, width: run.width) }
            if let cursor = body.cursor, cursor.line == index { self.cursor = (row + index, cursor.column) }
        }
    }
}
