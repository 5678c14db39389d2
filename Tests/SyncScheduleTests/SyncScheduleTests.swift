import Testing
@testable import SyncSchedule

/// A test clock's instant: seconds as a whole number, so every expectation reads as a time line.
struct Instant: InstantProtocol {
    var offset: Duration
    static func seconds(_ value: Int) -> Instant { Instant(offset: .seconds(value)) }
    func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    func duration(to other: Instant) -> Duration { other.offset - offset }
    static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
}

@Suite("The sync schedule: when to pull, push, report and sleep")
struct SyncScheduleTests {
    typealias Schedule = SyncSchedule<Instant>
    let configuration = Schedule.Configuration(pullInterval: .seconds(5))

    func at(_ seconds: Int) -> Instant { .seconds(seconds) }

    /// A schedule that ran its first full cycle at 0 s and sleeps until 5 s.
    func afterFirstCycle() -> Schedule {
        var schedule = Schedule(configuration: configuration, now: at(0))
        _ = schedule.tick(now: at(0))
        _ = schedule.answered(.ok, now: at(0))
        _ = schedule.answered(.ok, now: at(0))
        return schedule
    }

    @Test("a full cycle is pull, push, report, then sleep an interval")
    func fullCycle() {
        var schedule = Schedule(configuration: configuration, now: at(0))
        #expect(schedule.tick(now: at(0)) == [.pull])
        #expect(schedule.answered(.ok, now: at(1)) == [.push])
        #expect(schedule.answered(.ok, now: at(2)) == [.report, .sleep(until: at(7))])
        #expect(schedule.tick(now: at(6)) == [.sleep(until: at(7))], "woken early: nothing is due")
        #expect(schedule.tick(now: at(7)) == [.pull])
    }

    @Test("a recorded change pushes at once, and no report follows a nudged push")
    func nudgePushes() {
        var schedule = afterFirstCycle()
        #expect(schedule.nudge(now: at(1)) == [.push])
        #expect(schedule.answered(.ok, now: at(1)) == [.sleep(until: at(5))])
        #expect(schedule.tick(now: at(5)) == [.pull], "the interval is not moved by a nudge")
    }

    @Test("a change recorded while a request runs is pushed right after it, and one request runs at a time")
    func nudgeWhileBusy() {
        var schedule = afterFirstCycle()
        #expect(schedule.nudge(now: at(1)) == [.push])
        #expect(schedule.nudge(now: at(1)) == [], "the push in flight may have missed it")
        #expect(schedule.tick(now: at(5)) == [], "nothing starts while a request runs")
        #expect(schedule.answered(.ok, now: at(2)) == [.push], "the change the first push may not hold")
        #expect(schedule.answered(.ok, now: at(2)) == [.sleep(until: at(5))])
        // During a pull: its own push takes the change.
        var pulling = afterFirstCycle()
        #expect(pulling.tick(now: at(5)) == [.pull])
        #expect(pulling.nudge(now: at(5)) == [])
        #expect(pulling.answered(.ok, now: at(6)) == [.push])
        #expect(pulling.answered(.ok, now: at(6)) == [.report, .sleep(until: at(11))])
    }

    @Test("failures back off along the schedule, and a nudge does not shorten the wait")
    func backoff() {
        var schedule = afterFirstCycle()
        #expect(schedule.tick(now: at(5)) == [.pull])
        #expect(schedule.answered(.failed, now: at(5)) == [.sleep(until: at(6))])
        #expect(schedule.nudge(now: at(5)) == [])
        #expect(schedule.tick(now: at(6)) == [.pull], "after the wait, a full cycle")
        #expect(schedule.answered(.failed, now: at(6)) == [.sleep(until: at(8))])
        #expect(schedule.tick(now: at(8)) == [.pull])
        #expect(schedule.answered(.ok, now: at(8)) == [.push])
        #expect(schedule.answered(.failed, now: at(8)) == [.sleep(until: at(9))], "the pull was answered: the source is back, the count starts over")
        #expect(schedule.consecutiveFailures == 1)
        #expect(schedule.tick(now: at(9)) == [.pull])
        #expect(schedule.answered(.ok, now: at(9)) == [.push])
        #expect(schedule.answered(.ok, now: at(9)) == [.report, .sleep(until: at(14))])
        #expect(schedule.consecutiveFailures == 0)
    }

    @Test("the backoff's last step repeats")
    func backoffCeiling() {
        var schedule = Schedule(configuration: .init(pullInterval: .seconds(5), backoff: [.seconds(1), .seconds(3)]), now: at(0))
        var now = 0
        var waits: [Int] = []
        for _ in 0..<4 {
            #expect(schedule.tick(now: at(now)) == [.pull])
            guard case .sleep(let until) = schedule.answered(.failed, now: at(now)).last else { Issue.record("no sleep"); return }
            waits.append(Int(until.offset.components.seconds) - now)
            now = Int(until.offset.components.seconds)
        }
        #expect(waits == [1, 3, 3, 3])
    }

    @Test("a 429 waits what the source asked, bounded, or along the backoff when it said nothing")
    func tooMany() {
        var schedule = afterFirstCycle()
        #expect(schedule.nudge(now: at(1)) == [.push])
        #expect(schedule.answered(.tooMany(retryAfter: .seconds(20)), now: at(1)) == [.sleep(until: at(21))])
        #expect(schedule.pause == .quiet)
        #expect(schedule.followEvent(.changed, now: at(2)) == [], "a follow channel's news waits for the quiet too")
        #expect(schedule.tick(now: at(21)) == [.pull])
        #expect(schedule.answered(.tooMany(retryAfter: .seconds(86_400)), now: at(21)) == [.sleep(until: at(321))], "at most 300 s")
        #expect(schedule.tick(now: at(321)) == [.pull])
        #expect(schedule.answered(.tooMany(retryAfter: nil), now: at(321)) == [.sleep(until: at(325))], "the third failure's step: 4 s")
    }

    @Test("nothing to do until someone acts: look again after an interval, without backing off or reporting")
    func waiting() {
        var schedule = Schedule(configuration: configuration, now: at(0))
        #expect(schedule.tick(now: at(0)) == [.pull])
        #expect(schedule.answered(.waiting, now: at(0)) == [.sleep(until: at(5))])
        #expect(schedule.consecutiveFailures == 0 && schedule.pausedUntil == nil)
        #expect(schedule.tick(now: at(5)) == [.pull])
    }

    @Test("while a follow channel is live, its news pulls at once and the interval only pushes and reports")
    func following() {
        var schedule = afterFirstCycle()
        #expect(schedule.followEvent(.quiet, now: at(1)) == [])
        #expect(schedule.followEvent(.changed, now: at(2)) == [.pull])
        #expect(schedule.answered(.ok, now: at(2)) == [.push], "a pull is always followed by a push")
        #expect(schedule.answered(.ok, now: at(2)) == [.sleep(until: at(5))], "no report for a followed pull")
        #expect(schedule.tick(now: at(5)) == [.push], "the interval: push only")
        #expect(schedule.answered(.ok, now: at(5)) == [.report, .sleep(until: at(10))])
        #expect(schedule.followEvent(.lost, now: at(6)) == [])
        #expect(schedule.tick(now: at(10)) == [.pull], "the channel is down: the interval pulls again")
    }

    @Test("news arriving during a request is pulled right after it")
    func followWhileBusy() {
        var schedule = afterFirstCycle()
        #expect(schedule.nudge(now: at(1)) == [.push])
        #expect(schedule.followEvent(.changed, now: at(1)) == [])
        #expect(schedule.answered(.ok, now: at(2)) == [.pull])
        #expect(schedule.answered(.ok, now: at(2)) == [.push])
        #expect(schedule.answered(.ok, now: at(3)) == [.sleep(until: at(5))])
    }

    @Test("the source's news ends a failure backoff: it answered, so it is back")
    func followEndsBackoff() {
        var schedule = afterFirstCycle()
        #expect(schedule.tick(now: at(5)) == [.pull])
        #expect(schedule.answered(.failed, now: at(5)) == [.sleep(until: at(6))])
        #expect(schedule.answered(.failed, now: at(5)) == [], "no request was in flight: a stray answer changes nothing")
        #expect(schedule.followEvent(.changed, now: at(5)) == [.pull], "the interval was due too: a full cycle")
        #expect(schedule.pausedUntil == nil)
        #expect(schedule.answered(.ok, now: at(5)) == [.push])
        #expect(schedule.answered(.ok, now: at(5)) == [.report, .sleep(until: at(10))])
    }

    @Test("an interval that passed while a request ran starts as soon as it is answered")
    func overdue() {
        var schedule = afterFirstCycle()
        #expect(schedule.nudge(now: at(4)) == [.push])
        #expect(schedule.answered(.ok, now: at(9)) == [.pull], "the 5 s cycle is overdue")
        #expect(schedule.answered(.ok, now: at(9)) == [.push])
        #expect(schedule.answered(.ok, now: at(10)) == [.report, .sleep(until: at(15))])
    }
}
