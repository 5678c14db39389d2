import RosterSync
import Testing

@Suite struct StallWatchTests {
    let start = ContinuousClock.now

    @Test func beatsCloserThanTheThresholdAreNoStall() {
        var watch = StallWatch()
        for step in 0..<20 { watch.beat(at: start + .milliseconds(250 * step)) }
        watch.beat(at: start + .milliseconds(250 * 19) + .milliseconds(1_900))
        #expect(!watch.needsPull)
    }

    @Test func aGapLongerThanTheThresholdIsAStallUntilAPullThatStartedAfterIt() {
        var watch = StallWatch()
        watch.beat(at: start)
        let resumed = start + .seconds(60)
        watch.beat(at: resumed)
        #expect(watch.stall == StallWatch.Stall(length: .seconds(60), resumedAt: resumed))
        // A pull that was already running when the station stopped knows nothing of the stall.
        watch.pulled(startedAt: start)
        #expect(watch.needsPull)
        watch.pulled(startedAt: resumed + .milliseconds(5))
        #expect(!watch.needsPull)
    }

    @Test func twoStallsBeforeAnyPullAddUp() {
        var watch = StallWatch()
        watch.beat(at: start)
        watch.beat(at: start + .seconds(10))
        watch.beat(at: start + .seconds(15))
        #expect(watch.stall?.length == .seconds(15))
        #expect(watch.stall?.resumedAt == start + .seconds(15))
    }

    @Test func theFirstBeatIsNoStall() {
        var watch = StallWatch()
        watch.beat(at: start + .seconds(1_000))
        #expect(!watch.needsPull)
    }

    @Test func aStallSettledWithoutAPullWaitsNoLonger() {
        var watch = StallWatch()
        watch.beat(at: start)
        watch.beat(at: start + .seconds(30))
        watch.settled()
        #expect(!watch.needsPull)
    }
}
