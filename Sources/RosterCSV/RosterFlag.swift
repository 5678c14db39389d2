import CheckInCore

/// A yes/no cell of a roster file, as spreadsheets and exports write it: yes/no, true/false,
/// 1/0, x (ticked) and empty (no), in any case. `nil` for anything else, which the row is
/// rejected for rather than guessed.
enum RosterFlag {
    static func parse(_ text: String) -> Bool? {
        switch text.trimmedWhitespace().lowercased() {
        case "", "no", "n", "false", "0": false
        case "yes", "y", "true", "1", "x": true
        default: nil
        }
    }
}
