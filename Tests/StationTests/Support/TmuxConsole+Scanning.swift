import Foundation

extension TmuxConsole {
    /// A keyboard-wedge scanner: the code and Enter in one tmux command, so they reach the
    /// console as one burst, as a scanner's keys do (its keys come 1–20 ms apart).
    func scan(_ code: String) throws {
        try tmux(["send-keys", "-t", "0", "-l", code, ";", "send-keys", "-t", "0", "Enter"])
    }

    /// A person typing: one key at a time, `gap` seconds apart (people average 100–250 ms).
    /// `type(_:)` sends its text as one burst, which is what a scanner does.
    func typeByHand(_ text: String, gap: Double = 0.12) throws {
        for character in text {
            try send(String(character), literal: true)
            Thread.sleep(forTimeInterval: gap)
        }
    }
}
