import Foundation
import Testing

extension TmuxConsole {
    /// "…" that is prose on the console, not a cut.
    static let proseEllipses = ["Signing in…", "Asking the hub…", "Preparing the event…", "Syncing with the hub…"]

    /// Lines of `screen` that were cut (the console ends a cut text with "…").
    static func cutLines(_ screen: String) -> [String] {
        screen.split(separator: "\n").map(String.init).filter { line in
            Self.proseEllipses.reduce(line) { $0.replacingOccurrences(of: $1, with: "") }.contains("…")
        }
    }

    /// Checks that nothing on `screen` is cut and that each of `needles` is there whole (wrapped
    /// text reads whole once line breaks and runs of spaces are one space).
    static func expectWhole(_ screen: String, _ needles: [String], _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(cutLines(screen).isEmpty, "\(what): cut \(cutLines(screen))\n\(screen)", sourceLocation: sourceLocation)
        func flat(_ text: String) -> String { text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ") }
        let whole = flat(screen)
        for needle in needles {
            #expect(whole.contains(flat(needle)), "\(what): \"\(needle)\" is not whole on\n\(screen)", sourceLocation: sourceLocation)
        }
    }
}
