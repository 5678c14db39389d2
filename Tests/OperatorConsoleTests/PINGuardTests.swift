import CheckInCore
import OperatorConsole
import Testing

/// The PIN guard kept across restarts (``PINGuard/Saved``) and the PIN rule, as values.
struct PINGuardTests {
    let wall = Timestamp(milliseconds: 1_800_000_000_000)

    /// A guard after `wrong` wrong entries at console times 1, 2, ….
    func guarded(wrong: Int) -> ConsoleModel {
        var model = ConsoleModel(pin: "482913", selfService: true)
        for attempt in 0..<wrong {
            model.handle(.function(1), now: Double(attempt))
            for digit in "000000" { model.handle(.character(digit), now: Double(attempt)) }
            model.handle(.enter, now: Double(attempt))
        }
        return model
    }

    @Test func wrongEntriesCountedBeforeARestartCountAfterIt() {
        let saved = guarded(wrong: 3).pinGuard.saved(now: 3, wallClock: wall)
        #expect(saved == PINGuard.Saved(failures: 3, lockouts: 0))
        let restored = PINGuard(restoring: saved, now: 0, wallClock: wall.adding(milliseconds: 60_000))
        #expect(restored.failures == 3)
        #expect(!restored.isLocked(now: 0))
    }

    @Test func aLockoutGoesOnForWhatWasLeftOfIt() {
        let model = guarded(wrong: 5)  // locked at console time 4 for 300 s
        let saved = model.pinGuard.saved(now: 104, wallClock: wall)  // 200 s left
        #expect(saved.lockedUntil == wall.adding(milliseconds: 200_000))
        #expect(saved.lockSeconds == 300)
        // Started again 50 s later: 150 s left.
        let restored = PINGuard(restoring: saved, now: 0, wallClock: wall.adding(milliseconds: 50_000))
        #expect(restored.isLocked(now: 149))
        #expect(!restored.isLocked(now: 151))
        #expect(restored.lockouts == 1, "the next lockout is twice as long")
    }

    @Test func aClockSetBackCannotLengthenALockoutAndOneThatRanOutWhileOffIsOver() {
        let saved = guarded(wrong: 5).pinGuard.saved(now: 4, wallClock: wall)
        // The box starts with its clock in 1970 (no RTC battery): at most the lockout's own length.
        let early = PINGuard(restoring: saved, now: 0, wallClock: Timestamp(milliseconds: 0))
        #expect(early.isLocked(now: 299))
        #expect(!early.isLocked(now: 301))
        // Off for longer than the lockout: over, but the lockout still counts.
        let late = PINGuard(restoring: saved, now: 0, wallClock: wall.adding(milliseconds: 3_600_000))
        #expect(!late.isLocked(now: 0))
        #expect(late.lockouts == 1)
        // Nonsense kept on disk changes nothing dangerous.
        let odd = PINGuard(restoring: PINGuard.Saved(failures: -7, lockouts: Int.max, lockedUntil: Timestamp(milliseconds: .max), lockSeconds: 300),
                           now: 0, wallClock: wall)
        #expect(odd.failures == 0)
        #expect(odd.isLocked(now: 299) && !odd.isLocked(now: 301))
    }

    @Test func aPINIsSixToThirtyTwoASCIIDigits() {
        #expect(PINGuard.problem(withPIN: "482913") == nil)
        #expect(PINGuard.problem(withPIN: String(repeating: "7", count: 32)) == nil)
        #expect(PINGuard.problem(withPIN: "4321")?.contains("at least 6 digits, 0-9 (it has 4)") == true)
        #expect(PINGuard.problem(withPIN: "12345a") != nil)
        #expect(PINGuard.problem(withPIN: "١٢٣٤٥٦") != nil, "digits of another script cannot be typed on the keypad")
        #expect(PINGuard.problem(withPIN: String(repeating: "7", count: 33)) != nil)
    }
}
