import Testing
@testable import CheckInCore

/// Whether this station may undo a check-in, given the hub's station undo time.
@Suite("Station undo window")
struct StationUndoWindowTests {
    let scanned = Timestamp(milliseconds: 1_800_000_000_000)

    func at(seconds: Int64) -> Timestamp { Timestamp(milliseconds: scanned.milliseconds + seconds * 1000) }

    @Test func anUploadedCheckInWithinTheWindowLessItsMarginMayBeUndone() {
        let window = StationUndoWindow(milliseconds: 300_000)
        #expect(window.marginMilliseconds == 15_000)
        #expect(window.decide(scannedAt: scanned, uploaded: true, now: at(seconds: 285)) == .allowed)
        #expect(window.decide(scannedAt: scanned, uploaded: true, now: at(seconds: 286))
            == .beyondHubWindow(windowMilliseconds: 300_000, ageMilliseconds: 286_000))
    }

    @Test func aShortWindowKeepsATenthBack() {
        let window = StationUndoWindow(milliseconds: 12_000)
        #expect(window.decide(scannedAt: scanned, uploaded: true, now: at(seconds: 10)) == .allowed)
        #expect(window.decide(scannedAt: scanned, uploaded: true, now: at(seconds: 11)) != .allowed)
    }

    @Test func aCheckInStillWaitingInTheOutboxMayBeUndoneAtAnyAge() {
        let window = StationUndoWindow(milliseconds: 12_000)
        #expect(window.decide(scannedAt: scanned, uploaded: false, now: at(seconds: 86_400)) == .allowed)
    }

    @Test func extremeTimesAndANegativeWindowNeitherTrapNorAllow() {
        #expect(StationUndoWindow(milliseconds: -5).decide(scannedAt: scanned, uploaded: true, now: at(seconds: 1)) != .allowed)
        let far = StationUndoWindow(milliseconds: .max)
        #expect(far.decide(scannedAt: Timestamp(milliseconds: .min), uploaded: true, now: Timestamp(milliseconds: .max)) != .allowed)
        #expect(far.decide(scannedAt: scanned, uploaded: true, now: at(seconds: 1)) == .allowed)
    }
}
