import Testing
@testable import CheckInCore

@Suite("Check-in decisions")
struct CheckInRulesTests: RulesFixture {
    func admission(device: String = "door-1", at: Timestamp, direction: Direction = .entry) -> CheckIn {
        CheckIn(key: IdempotencyKey(deviceID: device, guestID: "g1", scannedAt: at), station: "Door 1", operatorName: "Alex", source: .camera, direction: direction)
    }

    func decide(_ type: AccessType?, guest: Guest?, at: Timestamp, device: String = "door-2", admissions: [CheckIn] = [], admitted: Set<String>? = nil, direction: Direction = .entry) -> Decision {
        CheckInRules.decide(
            .init(deviceID: device, at: at, direction: direction, admittedAccessTypes: admitted),
            guest: guest, accessType: type, admissions: admissions)
    }

    @Test("a first presentation is admitted")
    func firstAdmitted() {
        #expect(decide(single, guest: guest(single), at: t0) == .admitted)
    }

    @Test("an unknown code is refused")
    func unknown() {
        #expect(decide(nil, guest: nil, at: t0) == .unknownCode)
    }

    @Test("a revoked ticket is refused even on first presentation")
    func revoked() {
        #expect(decide(single, guest: guest(single, revoked: true), at: t0) == .revoked)
    }

    @Test("an access type not admitted at this station is not valid here")
    func notValidHere() {
        #expect(decide(single, guest: guest(single), at: t0, admitted: ["vip"]) == .notValidHere(accessType: "General"))
        #expect(decide(single, guest: guest(single), at: t0, admitted: ["general"]) == .admitted)
    }

    @Test("before valid-from and after valid-until the ticket is outside its window")
    func timeWindow() {
        let window = AccessType(id: "day1", name: "Day 1", validFrom: t0, validUntil: t0.adding(milliseconds: 3_600_000))
        let g = Guest(id: "g1", code: TicketCode(stored: "A"), name: "A", accessTypeID: "day1")
        #expect(decide(window, guest: g, at: t0.adding(milliseconds: -1)) == .outsideWindow(validFrom: window.validFrom, validUntil: window.validUntil))
        #expect(decide(window, guest: g, at: t0) == .admitted)
        #expect(decide(window, guest: g, at: t0.adding(milliseconds: 3_600_000)) == .admitted)
        #expect(decide(window, guest: g, at: t0.adding(milliseconds: 3_600_001)).kind == .outsideWindow)
    }

    @Test("another device within 30 s is a duplicate naming the first", arguments: [0, 1, 29_999, 30_000, -30_000])
    func withinWindow(delta: Int64) {
        let first = admission(at: t0)
        let decision = decide(single, guest: guest(single), at: t0.adding(milliseconds: delta), admissions: [first])
        #expect(decision == .duplicate(previous: first.summary))
        #expect(decision.previous?.by == "Alex")
        #expect(decision.previous?.station == "Door 1")
    }

    @Test("beyond 30 s a single-entry ticket is already checked in", arguments: [30_001, 3_600_000])
    func beyondWindowSingle(delta: Int64) {
        let first = admission(at: t0)
        #expect(decide(single, guest: guest(single), at: t0.adding(milliseconds: delta), admissions: [first]) == .alreadyCheckedIn(previous: first.summary))
    }

    @Test("beyond 30 s a re-entry ticket is admitted again")
    func beyondWindowReentry() {
        let first = admission(at: t0)
        #expect(decide(reentry, guest: guest(reentry), at: t0.adding(milliseconds: 30_001), admissions: [first]) == .admitted)
        #expect(decide(reentry, guest: guest(reentry), at: t0.adding(milliseconds: 10_000), admissions: [first]).kind == .duplicate)
    }

    @Test("already checked in names the first admission, not the latest")
    func namesFirst() {
        let first = admission(device: "a", at: t0)
        let second = admission(device: "b", at: t0.adding(milliseconds: 10_000))
        let decision = decide(single, guest: guest(single), at: t0.adding(milliseconds: 600_000), admissions: [second, first])
        #expect(decision.previous?.deviceID == "a")
    }

    @Test("the event's own tolerance window applies")
    func customWindow() {
        let first = admission(at: t0)
        let policy = EventPolicy(toleranceWindowMilliseconds: 5_000)
        let d = CheckInRules.decide(.init(deviceID: "x", at: t0.adding(milliseconds: 6_000)), guest: guest(single), accessType: single, admissions: [first], policy: policy)
        #expect(d.kind == .alreadyCheckedIn)
    }

    @Test("exits are recorded without the entry rules (see EntryExitRulesTests)")
    func exits() {
        let first = admission(at: t0)
        #expect(decide(single, guest: guest(single), at: t0.adding(milliseconds: 60_000), admissions: [first], direction: .exit) == .admitted)
        #expect(decide(single, guest: guest(single), at: t0.adding(milliseconds: 10_000), admissions: [first], direction: .exit) == .admitted,
                "within the tolerance window too: an exit is never a duplicate of the entry")
    }

    @Test("every decision kind has a distinct exit code, zero only for admitted")
    func exitCodes() {
        let codes = Decision.Kind.allCases.map(\.exitCode)
        #expect(Set(codes).count == codes.count)
        #expect(Decision.Kind.allCases.filter { $0.exitCode == 0 } == [.admitted])
    }
}
