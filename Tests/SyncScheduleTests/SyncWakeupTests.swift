import SyncSchedule
import Testing

/// The sync loop's sleep, woken by a recorded check-in (``SyncWakeup``).
struct SyncWakeupTests {
    @Test func aNudgeBeforeTheSleepIsKeptAndEndsItAtOnce() async {
        let wakeup = SyncWakeup()
        wakeup.nudge()
        let start = ContinuousClock.now
        #expect(await wakeup.sleep(until: .now + .seconds(60)))
        #expect(ContinuousClock.now - start < .seconds(5), "a hang detector: it returns at once")
    }

    @Test func aSleepWithoutANudgeEndsAtItsDeadline() async {
        let wakeup = SyncWakeup()
        let start = ContinuousClock.now
        #expect(await wakeup.sleep(until: .now + .milliseconds(100)) == false)
        #expect(ContinuousClock.now - start >= .milliseconds(100))
    }

    @Test func aNudgeDuringTheSleepWakesItAndTheNextSleepWaitsAgain() async {
        // Whether the nudge lands before the sleeper sleeps or during its sleep, it wakes it:
        // nothing here depends on how a loaded machine schedules the two.
        let wakeup = SyncWakeup()
        let sleeper = Task { await wakeup.sleep(until: .now + .seconds(600)) }
        await Task.yield()
        wakeup.nudge()
        #expect(await sleeper.value)
        #expect(await wakeup.sleep(until: .now + .milliseconds(50)) == false, "one nudge wakes one sleep")
    }

    @Test func cancellingTheSleeperEndsTheSleep() async {
        let wakeup = SyncWakeup()
        let sleeper = Task { await wakeup.sleep(until: .now + .seconds(600)) }
        await Task.yield()
        sleeper.cancel()
        #expect(await sleeper.value == false, "cancelled before or during its sleep, it ends without waiting 10 minutes")
    }
}
