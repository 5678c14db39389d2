import Testing
@testable import CheckInCore

/// A check-in list's rules, evaluated by the door, in the door's rules.
@Suite("The list's rules in the rules")
struct ListRulesInTheRulesTests: RulesFixture {
    func judge(_ verdict: ListRulesVerdict?, direction: Direction = .entry, movements: [CheckIn] = []) -> Decision {
        CheckInRules.judge(.init(deviceID: "door-1", at: t0, direction: direction, listRules: verdict),
                           guest: guest(single), accessType: single, movements: movements).decision
    }

    func entry(at: Timestamp) -> CheckIn {
        CheckIn(key: IdempotencyKey(deviceID: "door-2", guestID: "g1", scannedAt: at), station: "Door 2", operatorName: "Alex", source: .camera)
    }

    @Test("a refusal by the rules refuses an entry the door would admit, in the rules' words")
    func rulesRefuse() {
        #expect(judge(.passes) == .admitted)
        #expect(judge(.refused(explanation: "Only allowed after 19:00")) == .listRules(explanation: "Only allowed after 19:00"))
    }

    @Test("rules the station cannot evaluate refuse, never admit, and say so")
    func rulesNotUnderstoodRefuse() {
        #expect(judge(.notUnderstood("the operator weather is not known to this station"))
                == .listRules(explanation: "This station cannot evaluate the list's rules (the operator weather is not known to this station): see staff"))
    }

    @Test("an exit, and a scan of an admission seen again, are not entries the rules judge")
    func rulesJudgeNewEntriesOnly() {
        #expect(judge(.refused(explanation: "Maximum number of entries exceeded"), direction: .exit, movements: [entry(at: t0.adding(milliseconds: -60_000 * 30))]) == .admitted)
        #expect(judge(.refused(explanation: "Maximum number of entries exceeded"), movements: [entry(at: t0.adding(milliseconds: -5_000))]).kind == .duplicate)
    }
}
