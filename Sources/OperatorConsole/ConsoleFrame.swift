/// What to draw: positioned, styled runs of already-fitted text. The curses layer only copies
/// these to the screen, so every layout rule is tested without a terminal.
public struct ConsoleFrame: Sendable, Equatable {
    public enum Style: Sendable, Equatable {
        case normal
        case bold
        /// Title and key-hint bars.
        case bar
        /// The selected search row, the focused form field.
        case highlight
        /// A result panel background in the tone's colour.
        case panel(ResultPanel.Tone)
        /// The idle prompt panel.
        case prompt
        /// Diagnostic and error text.
        case alert
    }

    public struct Run: Sendable, Equatable {
        public var row: Int
        public var column: Int
        public var text: String
        public var style: Style
    }

    public var size: TerminalSize
    public var runs: [Run] = []
    /// Where the text cursor sits (the input being typed), if visible.
    public var cursor: (row: Int, column: Int)?

    public init(size: TerminalSize) { self.size = size }

    /// Adds `text` at (row, column), fitted to the columns left on that row.
    public mutating func put(_ row: Int, _ column: Int, _ text: String, _ style: Style = .normal, width: Int? = nil) {
        guard row >= 0, row < size.rows, column < size.columns else { return }
        let room = min(width ?? size.columns - column, size.columns - column)
        runs.append(Run(row: row, column: column, text: TerminalText.fit(text, width: room), style: style))
    }

    /// A full-width row padded with the style's background.
    public mutating func fill(_ row: Int, _ text: String, _ style: Style, centered: Bool = false) {
        guard row >= 0, row < size.rows else { return }
        let body = centered ? TerminalText.center(text, width: size.columns) : text
        runs.append(Run(row: row, column: 0, text: TerminalText.pad(body, width: size.columns), style: style))
    }

    /// All text of one row, runs laid over spaces (for tests and the headless log).
    public func line(_ row: Int) -> String {
        var cells = [String](repeating: " ", count: size.columns)
        for run in runs where run.row == row {
            var column = run.column
            for character in run.text {
                let width = TerminalText.width(String(character))
                guard column + max(width, 1) <= size.columns else { break }
                if width == 0 { if column > 0 { cells[column - 1] += String(character) }; continue }
                cells[column] = String(character)
                for extra in 1..<max(width, 1) { cells[column + extra] = "" }
                column += width
            }
        }
        return cells.joined()
    }

    /// The whole frame as text, one line per row, trailing spaces removed.
    public var text: String {
        (0..<size.rows).map { line($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }.joined(separator: "\n")
    }

    public static func == (lhs: ConsoleFrame, rhs: ConsoleFrame) -> Bool {
        lhs.size == rhs.size && lhs.runs == rhs.runs && lhs.cursor?.row == rhs.cursor?.row && lhs.cursor?.column == rhs.cursor?.column
    }
}

import Foundation
