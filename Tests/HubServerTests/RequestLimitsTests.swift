import Testing
@testable import HubDashboard
@testable import HubServer

/// What one client may take of the hub, in process: the body pace, the connection gate and its
/// default caps, and the live streams' quota.
struct RequestLimitsTests {
    let pace = BodyPace(grace: .seconds(30), minimumBytesPerSecond: 16_384)

    @Test func aSmallBodyHasTheGraceWhateverItsPace() {
        #expect(pace.allowed(declaredLength: 300, received: 0) == .seconds(30))
        #expect(pace.allowed(declaredLength: 16_000, received: 15_999) == .seconds(30))
        #expect(pace.allowed(declaredLength: HubLimits.smallBodyBytes, received: 0) == .seconds(30))
    }

    @Test func aLargeBodyEarnsTimeOnlyByArrivingAtTheMinimumPace() {
        #expect(pace.allowed(declaredLength: 60_000_000, received: 0) == .seconds(30), "nothing earned yet")
        #expect(pace.allowed(declaredLength: 60_000_000, received: 16_384 * 10) == .seconds(40))
        #expect(pace.allowed(declaredLength: 60_000_000, received: 8_192) == .seconds(30) + .milliseconds(500))
        #expect(pace.allowed(declaredLength: nil, received: 16_384) == .seconds(31), "chunked: what came counts")
        // Never more than the declared body would earn.
        #expect(pace.allowed(declaredLength: 100_000, received: 1_000_000) == pace.allowed(declaredLength: 100_000, received: 100_000))
        #expect(BodyPace(grace: .seconds(1), minimumBytesPerSecond: 1).allowed(declaredLength: .max, received: .max) > .seconds(1), "no overflow")
    }

    @Test func connectionsBeyondEitherCapAreRefusedAndAPlaceComesBack() throws {
        let gate = ConnectionGate(maximum: 5, maximumPerClient: 2, trustedProxies: ["10.0.0.1"])
        let first = try gate.admit(peer: "2001:db8::1").get()
        _ = try gate.admit(peer: "2001:db8::2").get()
        #expect(gate.admit(peer: "2001:db8::ffff") == .failure(.client(2)), "one /64 is one client")
        _ = try gate.admit(peer: "2001:db8:0:1::1").get()
        // A trusted proxy counts in the total only.
        _ = try gate.admit(peer: "10.0.0.1").get()
        _ = try gate.admit(peer: "10.0.0.1").get()
        #expect(gate.admit(peer: "203.0.113.1") == .failure(.total(5)))
        gate.release(first)
        #expect(gate.load == (4, 2) ? true : false)
        #expect((try? gate.admit(peer: "2001:db8::3").get()) != nil)
    }

    @Test func theDefaultCapsFollowTheDescriptorLimit() {
        #expect(HubLimits.connectionCaps(descriptorLimit: 128) == (64, 32))
        #expect(HubLimits.connectionCaps(descriptorLimit: 1_024) == (960, 480))
        #expect(HubLimits.connectionCaps(descriptorLimit: 65_536) == (16_384, 1_024))
        #expect(HubLimits.connectionCaps(descriptorLimit: 20) == (8, 4), "some room however low")
        #expect(HubLimits(maximumConnections: 12).connections(descriptorLimit: 65_536) == (12, 6), "half of a configured total")
        #expect(HubLimits(maximumConnections: 12, maximumConnectionsPerClient: 10).connections(descriptorLimit: 128) == (12, 10))
    }

    @Test func aSessionAndAPersonHoldAFewStreamsAndAnEndedOneGivesItsPlaceBack() throws {
        let quota = LiveStreamQuota(perSession: 2, perStaff: 3)
        var tickets = [try quota.admit(session: "a", staff: "mal").get(), try quota.admit(session: "a", staff: "mal").get()]
        #expect(quota.admit(session: "a", staff: "mal").map { _ in 0 } == .failure(.session(2)))
        tickets.append(try quota.admit(session: "b", staff: "mal").get())
        #expect(quota.admit(session: "c", staff: "mal").map { _ in 0 } == .failure(.staff(3)), "three sessions of one person")
        #expect((try? quota.admit(session: "d", staff: "olga").get()) != nil, "another person")
        tickets.removeFirst()
        #expect(quota.open == 2)
        #expect((try? quota.admit(session: "a", staff: "mal").get()) != nil)
    }
}
