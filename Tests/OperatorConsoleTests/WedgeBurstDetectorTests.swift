import OperatorConsole
import Testing

/// The burst detector as a value, with scripted arrival times.
@Suite struct WedgeBurstDetectorTests {
    let standard = WedgeThresholds(maxKeyGap: .milliseconds(30), minLength: 6)

    /// Feeds keys `gap` apart from `start`, then expires at the end as the terminal would.
    func feed(_ keys: [Key], gap: Duration, start: Duration = .zero, into detector: inout WedgeBurstDetector) -> [TerminalInput] {
        var outputs: [TerminalInput] = []
        for (index, key) in keys.enumerated() {
            outputs += detector.receive(key, at: start + gap * index)
        }
        return outputs
    }

    func characters(_ text: String) -> [Key] { text.map(Key.character) }

    @Test func aScannerBurstEndingInEnterIsOneScanAndNoneOfItsKeys() {
        var detector = WedgeBurstDetector(thresholds: standard)
        let outputs = feed(characters("DEMO-0001") + [.enter], gap: .milliseconds(4), into: &detector)
        #expect(outputs == [.scanned("DEMO-0001", timing: ScanTiming(keyGaps: Array(repeating: .milliseconds(4), count: 9), duration: .milliseconds(36)))])
        #expect(detector.deadline == nil)
    }

    @Test func keysThatArriveTogetherAreABurstWithZeroGaps() {
        // tmux send-keys, or a burst read late on a busy machine: one arrival for every key.
        var detector = WedgeBurstDetector(thresholds: standard)
        let outputs = feed(characters("https://t.example/?c=AB-12_x.y&z=1") + [.enter], gap: .zero, into: &detector)
        guard case .scanned(let code, let timing) = outputs.first else { Issue.record("\(outputs)"); return }
        #expect(outputs.count == 1)
        #expect(code == "https://t.example/?c=AB-12_x.y&z=1")
        #expect(timing.duration == .zero && timing.longestGap == .zero)
    }

    @Test func aPersonTypingGetsEveryKeyUnchangedInOrderAndEnterAsAKey() {
        var detector = WedgeBurstDetector(thresholds: standard)
        var outputs: [TerminalInput] = []
        var now = Duration.zero
        for character in "DEMO-0001" {
            outputs += detector.receive(.character(character), at: now)
            // The terminal wakes at the deadline: the key is released before the next one comes.
            #expect(detector.deadline == now + .milliseconds(30))
            outputs += detector.expire(at: now + .milliseconds(30))
            now += .milliseconds(140)
        }
        outputs += detector.receive(.enter, at: now)
        #expect(outputs == characters("DEMO-0001").map(TerminalInput.key) + [.key(.enter)])
    }

    @Test func nothingIsReleasedBeforeTheDeadline() {
        var detector = WedgeBurstDetector(thresholds: standard)
        #expect(detector.receive(.character("a"), at: .milliseconds(100)).isEmpty)
        #expect(detector.expire(at: .milliseconds(129)).isEmpty)
        #expect(detector.expire(at: .milliseconds(130)) == [.key(.character("a"))])
        #expect(detector.expire(at: .milliseconds(500)).isEmpty)
    }

    @Test func aQuickRollOfTwoKeysThenAPauseIsTyping() {
        // People roll some pairs ("th") in under 20 ms; the pause after gives them back.
        var detector = WedgeBurstDetector(thresholds: standard)
        var outputs = detector.receive(.character("t"), at: .zero)
        outputs += detector.receive(.character("h"), at: .milliseconds(12))
        #expect(outputs.isEmpty)
        outputs += detector.receive(.character("e"), at: .milliseconds(150))   // late key: releases the pair
        #expect(outputs == [.key(.character("t")), .key(.character("h"))])
        outputs += detector.expire(at: .milliseconds(180))
        #expect(outputs.last == .key(.character("e")))
    }

    @Test func aFastShortAnswerIsTypedNotScanned() {
        // A 4-digit PIN or "y" sent at machine speed (a test tool) stays typed: below the length.
        var detector = WedgeBurstDetector(thresholds: standard)
        let outputs = feed(characters("9999") + [.enter], gap: .milliseconds(2), into: &detector)
        #expect(outputs == characters("9999").map(TerminalInput.key) + [.key(.enter)])
    }

    @Test func aSlowEnterAfterABurstMeansThePersonPressedIt() {
        var detector = WedgeBurstDetector(thresholds: standard)
        var outputs = feed(characters("DEMO-0001"), gap: .milliseconds(3), into: &detector)
        outputs += detector.receive(.enter, at: .milliseconds(300))
        #expect(outputs == characters("DEMO-0001").map(TerminalInput.key) + [.key(.enter)])
    }

    @Test func aFunctionKeyOrTabReleasesTheHeldKeysFirst() {
        var detector = WedgeBurstDetector(thresholds: standard)
        var outputs = feed(characters("Zoë Walker"), gap: .zero, into: &detector)
        outputs += detector.receive(.tab, at: .milliseconds(5))
        #expect(outputs == characters("Zoë Walker").map(TerminalInput.key) + [.key(.tab)])
        outputs = detector.receive(.function(2), at: .milliseconds(6))
        #expect(outputs == [.key(.function(2))])
    }

    @Test func aBurstAfterAPauseStartsAfreshAndDoesNotCarryTheTypedKeys() {
        var detector = WedgeBurstDetector(thresholds: standard)
        var outputs = detector.receive(.character("x"), at: .zero)
        outputs += feed(characters("DEMO-0002") + [.enter], gap: .milliseconds(2), start: .milliseconds(500), into: &detector)
        #expect(outputs.first == .key(.character("x")))
        guard case .scanned(let code, _) = outputs.last else { Issue.record("\(outputs)"); return }
        #expect(code == "DEMO-0002" && outputs.count == 2)
    }

    @Test func aPasteLongerThanAnyTicketIsTypedUntilThePause() {
        var detector = WedgeBurstDetector(thresholds: standard)
        let text = String(repeating: "a", count: 1500)
        var outputs = feed(characters(text) + [.enter], gap: .zero, into: &detector)
        outputs += detector.expire(at: .seconds(1))
        #expect(outputs.count == 1501)
        #expect(outputs.last == .key(.enter))
        #expect(!outputs.contains { if case .scanned = $0 { true } else { false } })
    }

    @Test func switchedOffEveryKeyPassesAtOnce() {
        var detector = WedgeBurstDetector(thresholds: .off)
        let outputs = feed(characters("DEMO-0001") + [.enter], gap: .zero, into: &detector)
        #expect(outputs == (characters("DEMO-0001") + [.enter]).map(TerminalInput.key))
        #expect(detector.deadline == nil)
    }

    @Test func theMinimumLengthIsConfigurable() {
        var detector = WedgeBurstDetector(thresholds: WedgeThresholds(maxKeyGap: .milliseconds(30), minLength: 4))
        let outputs = feed(characters("AB12") + [.enter], gap: .milliseconds(1), into: &detector)
        guard case .scanned("AB12", _) = outputs.first else { Issue.record("\(outputs)"); return }
    }

    @Test func timingInWordsForTheScannerTestScreen() {
        let timing = ScanTiming(arrivals: [.zero, .milliseconds(3), .milliseconds(5), .microseconds(18_400)])
        #expect(timing.words == "4 keys in 18 ms, longest gap 13 ms")
        #expect(ScanTiming(keyGaps: [], duration: .microseconds(2_500)).words == "received in 2.5 ms")
    }
}
