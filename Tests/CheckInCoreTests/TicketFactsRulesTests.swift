import Testing
@testable import CheckInCore

@Suite("A ticket's own facts in the decision")
struct TicketFactsRulesTests: RulesFixture {
    func decide(_ facts: TicketFacts, type: AccessType? = nil, at: Timestamp, movements: [CheckIn] = [], direction: Direction = .entry) -> Decision {
        let type = type ?? single
        var guest = guest(type)
        guest.facts = facts
        return CheckInRules.judge(.init(deviceID: "door-1", at: at, direction: direction), guest: guest, accessType: type, movements: movements).decision
    }

    @Test("a ticket is refused before its own valid-from and after its valid-until, with its window in the answer")
    func ownWindow() {
        let facts = TicketFacts(validFrom: t0, validUntil: t0.adding(milliseconds: 60_000))
        #expect(decide(facts, at: t0.adding(milliseconds: -1)) == .outsideWindow(validFrom: t0, validUntil: t0.adding(milliseconds: 60_000)))
        #expect(decide(facts, at: t0) == .admitted)
        #expect(decide(facts, at: t0.adding(milliseconds: 60_000)) == .admitted)
        #expect(decide(facts, at: t0.adding(milliseconds: 60_001)).kind == .outsideWindow)
    }

    @Test func anUnpaidTicketTheShopLeavesToTheDoorAsksStaffAndIsAdmittedOnlyWhenTheyAgree() {
        var guest = guest(single)
        guest.facts = TicketFacts(refusal: .unpaid)
        func judge(admitUnpaid: Bool, direction: Direction = .entry) -> Decision {
            CheckInRules.judge(.init(deviceID: "door-1", at: t0, direction: direction, admitUnpaid: admitUnpaid), guest: guest, accessType: single,
                               movements: []).decision
        }
        #expect(judge(admitUnpaid: false) == .unpaid(admitAnyway: true))
        #expect(judge(admitUnpaid: true) == .admitted)
        #expect(judge(admitUnpaid: false, direction: .exit) == .admitted, "nobody is kept in")
        guest.revoked = true
        #expect(judge(admitUnpaid: true) == .unpaid(admitAnyway: false), "where the shop refuses unpaid orders, staff cannot admit")
    }

    @Test("a ticket's own window never keeps anyone in")
    func exitsIgnoreTheWindow() {
        #expect(decide(TicketFacts(validUntil: t0), at: t0.adding(milliseconds: 1), direction: .exit) == .admitted)
    }

    @Test("a check-in the ticketing system made before the import is the first admission of a single-entry ticket")
    func checkedInBeforeImport() {
        let decision = decide(TicketFacts(checkedInBefore: t0), at: t0.adding(milliseconds: 3_600_000))
        guard case .alreadyCheckedIn(let previous) = decision else { Issue.record("\(decision)"); return }
        #expect(previous.isBeforeImport && previous.at == t0 && previous.station == "before import")
        #expect(decide(TicketFacts(checkedInBefore: t0), type: reentry, at: t0.adding(milliseconds: 3_600_000)) == .admitted,
                "a re-entry ticket comes back in")
    }

    @Test("a ticket the shop refuses as unpaid or unapproved gets that answer and its own exit code, other reasons stay revoked")
    func shopReasonsOfTheirOwn() {
        func refused(_ refusal: TicketRefusal?) -> Decision {
            var guest = guest(single, revoked: true)
            guest.facts = TicketFacts(refusal: refusal)
            return CheckInRules.judge(.init(deviceID: "door-1", at: t0, direction: .entry), guest: guest, accessType: single, movements: []).decision
        }
        #expect(refused(.unpaid) == .unpaid(admitAnyway: false))
        #expect(refused(.unapproved) == .unapproved)
        for reason in [TicketRefusal.canceled, .expired, .blocked, nil] { #expect(refused(reason) == .revoked, "\(String(describing: reason))") }
        #expect(Decision.Kind.unpaid.exitCode == 16 && Decision.Kind.unapproved.exitCode == 17)
        #expect(Set(Decision.Kind.allCases.map(\.exitCode)).count == Decision.Kind.allCases.count)
    }

    @Test("a note for the staff does not change the decision")
    func attentionAdmits() {
        #expect(decide(TicketFacts(attention: "Hand out the VIP lanyard"), at: t0) == .admitted)
        #expect(TicketFacts(attention: "  ").attentionNote == nil)
    }
}
