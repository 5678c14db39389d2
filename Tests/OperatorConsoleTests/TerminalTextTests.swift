import OperatorConsole
import Testing

@Suite struct TerminalTextTests {
    @Test func wideCharactersTakeTwoColumnsAndCombiningMarksNone() {
        #expect(TerminalText.width("王小明") == 6)
        #expect(TerminalText.width("José") == 4)
        #expect(TerminalText.width("Jose\u{301}") == 4)
        #expect(TerminalText.width("김민준") == 6)
    }

    @Test func fittingCJKNeverSplitsAWideCharacterAcrossTheLimit() {
        let fitted = TerminalText.fit("王小明王小明", width: 6)
        #expect(fitted == "王小…")
        #expect(TerminalText.width(fitted) <= 6)
        #expect(TerminalText.fit("王小明", width: 6) == "王小明")
    }

    @Test func escapeSequencesAndBidiControlsAreRemoved() {
        let cleaned = TerminalText.clean("Eve\u{1b}[2J\u{1b}]0;pwned\u{07}\u{202E}lin\tX")
        #expect(!cleaned.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E })
        #expect(cleaned.hasPrefix("Eve[2J]0;pwned"))
    }

    @Test func paddingFillsExactlyTheWidth() {
        #expect(TerminalText.width(TerminalText.pad("王", width: 5)) == 5)
        #expect(TerminalText.width(TerminalText.pad("a very long name indeed", width: 8)) == 8)
    }
}
