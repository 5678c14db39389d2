import Testing
@testable import QRScan

@Suite struct ScanDebouncerTests {
    let t0 = ContinuousClock.now

    @Test func theSamePayloadWithinTheWindowIsOneScan() {
        var debouncer = ScanDebouncer()
        do { let admitted = debouncer.admit("ABC", at: t0); #expect(admitted) }
        do { let admitted = debouncer.admit("ABC", at: t0 + .milliseconds(500)); #expect(!admitted) }
        do { let admitted = debouncer.admit("ABC", at: t0 + .milliseconds(2900)); #expect(!admitted) }
    }

    @Test func aDifferentPayloadIsANewScanAtOnce() {
        var debouncer = ScanDebouncer()
        do { let admitted = debouncer.admit("ABC", at: t0); #expect(admitted) }
        do { let admitted = debouncer.admit("XYZ", at: t0 + .milliseconds(10)); #expect(admitted) }
    }

    @Test func theWindowSlidesWhileTheCodeStaysInView() {
        var debouncer = ScanDebouncer(window: .seconds(3))
        do { let admitted = debouncer.admit("ABC", at: t0); #expect(admitted) }
        for second in 1...10 { let admitted = debouncer.admit("ABC", at: t0 + .seconds(second)); #expect(!admitted) }
        do { let admitted = debouncer.admit("ABC", at: t0 + .seconds(14)); #expect(admitted) }
    }

    @Test func theWindowIsConfigurable() {
        var debouncer = ScanDebouncer(window: .seconds(1))
        do { let admitted = debouncer.admit("ABC", at: t0); #expect(admitted) }
        do { let admitted = debouncer.admit("ABC", at: t0 + .milliseconds(1500)); #expect(admitted) }
    }

    @Test func memoryStaysBoundedByWhatIsInView() {
        var debouncer = ScanDebouncer(window: .seconds(1))
        for i in 0..<10_000 { _ = debouncer.admit("code-\(i)", at: t0 + .seconds(i)) }
        // Only the codes seen within the last window (plus the pruning slack) are remembered.
        #expect(debouncer.rememberedCount <= 65)
    }
}
