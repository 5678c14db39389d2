import Testing
@testable import HubServer

/// The sign-in throttle's decision and its memory bound, in process.
struct SignInThrottleTests {
    @Test func theWaitDoublesAfterTheFreeFailuresUpToTheLongest() {
        let limits = SignInThrottle.Limits(freeFailures: 5, longestWait: .seconds(300))
        #expect((0...4).map { limits.wait(afterFailures: $0) } == Array(repeating: .zero, count: 5))
        #expect((5...9).map { limits.wait(afterFailures: $0) } == [1, 2, 4, 8, 16].map { Duration.seconds($0) })
        #expect(limits.wait(afterFailures: 20) == .seconds(300))
        #expect(limits.wait(afterFailures: Int.max) == .seconds(300), "no overflow however many")
        #expect(SignInThrottle.Limits(freeFailures: 0).wait(afterFailures: 1_000) == .zero, "0 turns it off")
    }

    @Test func accountsAreCaseBlindAndASuccessClearsThem() {
        let throttle = SignInThrottle(limits: .init(freeFailures: 2))
        let now = ContinuousClock.now
        throttle.failed("Alex@x.org", now: now)
        throttle.failed("alex@X.ORG", now: now)
        #expect(throttle.secondsToWait("alex@x.org", now: now) == 1)
        #expect(throttle.secondsToWait("alex@x.org", now: now + .seconds(1)) == nil)
        throttle.succeeded("ALEX@x.org")
        #expect(throttle.count == 0)
    }

    @Test func aFloodOfNamesKeepsAtMostTheCapacity() {
        let throttle = SignInThrottle(limits: .init(capacity: 100))
        for index in 0..<1_000 { throttle.failed("guess\(index)@x.org") }
        #expect(throttle.count <= 100)
        // The most recent are kept.
        throttle.failed("guess999@x.org")
        #expect(throttle.count <= 100)
    }
}

extension SignInThrottleTests {
    @Test func aClientsOldFailuresAreForgottenAtItsNextOne() {
        let throttle = SignInThrottle(limits: .init(freeFailures: 2, firstWait: .seconds(1), forgetAfter: .seconds(60)))
        let start = ContinuousClock.now
        throttle.failed("10.0.0.9", now: start)
        throttle.failed("10.0.0.9", now: start)
        #expect(throttle.secondsToWait("10.0.0.9", now: start) != nil)
        throttle.failed("10.0.0.9", now: start + .seconds(61))
        #expect(throttle.secondsToWait("10.0.0.9", now: start + .seconds(61)) == nil, "one fresh failure, still free")
    }
}
