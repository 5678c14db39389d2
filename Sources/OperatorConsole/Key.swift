/// A key press as the console understands it, independent of curses.
public enum Key: Sendable, Hashable {
    case character(Character)
    case enter
    case backspace
    case delete
    case escape
    case tab
    case backTab
    case up
    case down
    case left
    case right
    case pageUp
    case pageDown
    /// F1…F12.
    case function(Int)
    /// Ctrl + a letter (lower-case), e.g. Ctrl-U clears the input line.
    case control(Character)
}
