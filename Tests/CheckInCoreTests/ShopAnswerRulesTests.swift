import Testing
@testable import CheckInCore

/// The ticket shop's word, asked online, in the door's rules.
@Suite("The ticket shop's answer in the rules")
struct ShopAnswerRulesTests: RulesFixture {
    func judge(_ answer: ShopAnswer?, guest: Guest?, direction: Direction = .entry, movements: [CheckIn] = []) -> CheckInRules.Ruling {
        CheckInRules.judge(.init(deviceID: "door-1", at: t0, direction: direction, shopAnswer: answer),
                           guest: guest, accessType: single, movements: movements)
    }

    func entry(at: Timestamp) -> CheckIn {
        CheckIn(key: IdempotencyKey(deviceID: "door-2", guestID: "g1", scannedAt: at), station: "Door 2", operatorName: "Alex", source: .camera)
    }

    @Test("the shop's admission stands over what the station's copy says, and admits a ticket sold since the last download")
    func shopAdmits() {
        let hourAgo = Timestamp(milliseconds: t0.milliseconds - 3_600_000)
        #expect(judge(nil, guest: guest(single), movements: [entry(at: hourAgo)]).decision.kind == .alreadyCheckedIn)
        #expect(judge(.admitted, guest: guest(single), movements: [entry(at: hourAgo)]).decision == .admitted, "its rules allowed another entry")
        #expect(judge(.admitted, guest: nil).decision == .admitted)
        #expect(judge(.admitted, guest: guest(single), direction: .exit).flag == .exitWithoutEntry)
    }

    @Test("the shop's refusal is the decision, in its words")
    func shopRefuses() {
        #expect(judge(.refused(.listRules(explanation: "Maximum number of entries exceeded")), guest: guest(single)).decision
                == .listRules(explanation: "Maximum number of entries exceeded"))
        #expect(judge(.refused(.unknownCode), guest: guest(single)).decision == .unknownCode)
    }

    @Test("an entry only the shop decides waits for it while it cannot be asked; what the station refuses itself, and exits, do not")
    func shopUnreachable() {
        #expect(judge(.unreachable(.rules), guest: guest(single)).decision == .needsOnline(.rules))
        #expect(judge(.unreachable(.questions(["7"])), guest: guest(single)).decision == .needsOnline(.questions(["7"])))
        #expect(judge(.unreachable(.rules), guest: guest(single, revoked: true)).decision == .revoked)
        #expect(judge(.unreachable(.rules), guest: nil).decision == .unknownCode)
        #expect(judge(.unreachable(.rules), guest: guest(single), direction: .exit).decision == .admitted)
        #expect(Decision.needsOnline(.rules).kind.exitCode == 19 && Decision.listRules(explanation: nil).kind.exitCode == 20)
    }
}
