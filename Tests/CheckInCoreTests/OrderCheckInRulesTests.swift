import Testing
@testable import CheckInCore

@Suite("Tickets of orders decided at the door, in pretix's offline order")
struct OrderCheckInRulesTests {
    let t0 = Timestamp(milliseconds: 1_790_000_000_000)
    let general = OrderTicket(product: "1", productName: "General admission")
    let main = CheckInList(id: "1", name: "Main entrance", includesPending: true)
    let paidOnly = CheckInList(id: "2", name: "Paid only")

    func decide(_ ticket: OrderTicket, on list: CheckInList? = nil, movements: [ListMovement] = [], direction: Direction = .entry,
                at: Timestamp? = nil, admitUnpaid: Bool = false) -> ListVerdict {
        OrderCheckInRules.decide(.init(direction: direction, at: at ?? t0, admitUnpaid: admitUnpaid),
                                 lookup: .ticket(ticket, movements: movements), list: list ?? main)
    }

    func moved(_ direction: Direction, minutesBefore minutes: Int64, device: String = "pretix-device-2") -> ListMovement {
        ListMovement(direction: direction, prior: PriorCheckIn(by: "pretix", station: "Door 2", deviceID: device, at: t0.adding(milliseconds: -minutes * 60_000)))
    }

    func with(_ change: (inout OrderTicket) -> Void) -> OrderTicket {
        var ticket = general
        change(&ticket)
        return ticket
    }

    @Test("a code no ticket holds is unknown, or revoked or blocked when pretix lists it so")
    func lookups() {
        func decide(_ lookup: OrderCheckInRules.Lookup) -> ListVerdict { OrderCheckInRules.decide(.init(at: t0), lookup: lookup, list: main) }
        #expect(decide(.none(revoked: false, blocked: false)) == .refused(.unknownCode))
        #expect(decide(.none(revoked: true, blocked: false)) == .refused(.revoked))
        #expect(decide(.none(revoked: false, blocked: true)) == .refused(.blocked))
        #expect(decide(.none(revoked: true, blocked: true)) == .refused(.revoked), "pretix looks at the revoked list first")
        #expect(decide(.several(count: 2)) == .refused(.ambiguous(count: 2)))
    }

    @Test("each refusal in pretix's order, the first that applies winning", arguments: [
        // (what the ticket is, the verdict): each row also breaks every later rule.
        ("canceled", ListVerdict.refused(.canceled)),
        ("expired", .refused(.canceled)),
        ("blocked", .refused(.blocked)),
        ("unapproved", .refused(.unapproved)),
        ("not yet valid", .refused(.outsideWindow(validFrom: Timestamp(milliseconds: 1_790_000_060_000), validUntil: nil))),
        ("product", .refused(.productNotOnList(product: "General admission"))),
        ("date", .refused(.otherDate)),
        ("unpaid", .refused(.unpaid(admitAnyway: false))),
    ])
    func order(_ row: String, expected: ListVerdict) {
        let later = Timestamp(milliseconds: 1_790_000_060_000)
        let list = CheckInList(id: "3", name: "VIP lounge", products: ["2"], subevent: "7", hasRules: true)
        var ticket = OrderTicket(orderStatus: .pending, requiresApproval: true, blocked: true, validFrom: later, product: "1",
                                 productName: "General admission", subevent: "8", questionsToAsk: ["1"])
        let steps = ["canceled", "expired", "blocked", "unapproved", "not yet valid", "product", "date", "unpaid"]
        // Lift every rule before this row's, so this one is the first that applies.
        for step in steps.prefix(while: { $0 != row }) {
            switch step {
            case "blocked": ticket.blocked = false
            case "unapproved": ticket.requiresApproval = false
            case "not yet valid": ticket.validFrom = nil
            case "product": ticket.product = "2"
            case "date": ticket.subevent = "7"
            default: break
            }
        }
        if row == "canceled" { ticket.orderStatus = .canceled }
        if row == "expired" { ticket.orderStatus = .expired }
        #expect(decide(ticket, on: list) == expected)
    }

    @Test("an unpaid ticket may be admitted anyway only where the list includes pending orders and staff confirm")
    func unpaid() {
        let pending = with { $0.orderStatus = .pending }
        #expect(decide(pending) == .refused(.unpaid(admitAnyway: true)))
        #expect(decide(pending, admitUnpaid: true) == .admitted)
        #expect(decide(pending, on: paidOnly) == .refused(.unpaid(admitAnyway: false)))
        #expect(decide(pending, on: paidOnly, admitUnpaid: true) == .refused(.unpaid(admitAnyway: false)), "the list does not include pending orders")
        #expect(decide(with { $0.orderStatus = .pending; $0.validIfPending = true }, on: paidOnly) == .admitted, "valid before payment")
        #expect(decide(with { $0.orderStatus = .pending; $0.requiresApproval = true }, admitUnpaid: true) == .refused(.unapproved))
        #expect(decide(with { $0.requiresApproval = true }) == .admitted, "a paid order was approved")
    }

    @Test("the ticket's window applies to entries, both ends inclusive")
    func window() {
        let ticket = with { $0.validFrom = t0; $0.validUntil = t0.adding(milliseconds: 1_000) }
        #expect(decide(ticket, at: t0.adding(milliseconds: -1)) == .refused(.outsideWindow(validFrom: t0, validUntil: t0.adding(milliseconds: 1_000))))
        #expect(decide(ticket, at: t0) == .admitted)
        #expect(decide(ticket, at: t0.adding(milliseconds: 1_000)) == .admitted)
        #expect(decide(ticket, at: t0.adding(milliseconds: 1_001)) != .admitted)
        #expect(decide(ticket, direction: .exit, at: t0.adding(milliseconds: 5_000)) == .admitted, "nobody is kept in by the window")
    }

    @Test("exits pass the window, rules, questions and entry rules, but not a canceled, blocked or unpaid ticket")
    func exits() {
        let rules = CheckInList(id: "4", name: "Rules", hasRules: true)
        #expect(decide(general, on: rules, movements: [moved(.entry, minutesBefore: 5)], direction: .exit) == .admitted)
        #expect(decide(with { $0.questionsToAsk = ["1"] }, direction: .exit) == .admitted)
        #expect(decide(with { $0.orderStatus = .canceled }, direction: .exit) == .refused(.canceled))
        #expect(decide(with { $0.blocked = true }, direction: .exit) == .refused(.blocked))
        #expect(decide(with { $0.orderStatus = .pending }, on: paidOnly, direction: .exit) == .refused(.unpaid(admitAnyway: false)))
        #expect(decide(general, on: CheckInList(id: "3", name: "VIP", products: ["2"]), direction: .exit) == .refused(.productNotOnList(product: "General admission")))
    }

    @Test("a list with rules, or a ticket with questions to ask, is left to pretix online")
    func onlineOnly() {
        #expect(decide(general, on: CheckInList(id: "4", name: "At most 2", hasRules: true)) == .refused(.needsOnline(.rules)))
        #expect(decide(with { $0.questionsToAsk = ["12"] }) == .refused(.needsOnline(.questions(["12"]))))
        #expect(decide(with { $0.questionsToAsk = ["12"]; $0.orderStatus = .canceled }) == .refused(.canceled), "refusals come first")
    }

    @Test("single entry: a second entry is refused with the first movement; after an exit it enters again where the list allows it")
    func entries() {
        let first = moved(.entry, minutesBefore: 30)
        #expect(decide(general, movements: []) == .admitted)
        #expect(decide(general, movements: [first]) == .refused(.alreadyCheckedIn(first: first.prior)))
        #expect(decide(general, movements: [moved(.exit, minutesBefore: 10), first]) == .admitted, "the last movement was an exit")
        let noReentry = CheckInList(id: "5", name: "Once", allowsEntryAfterExit: false)
        #expect(decide(general, on: noReentry, movements: [first, moved(.exit, minutesBefore: 10)]) == .refused(.alreadyCheckedIn(first: first.prior)))
        #expect(decide(general, on: noReentry, movements: [moved(.exit, minutesBefore: 10)]) == .admitted, "only exits so far")
        #expect(decide(general, on: CheckInList(id: "6", name: "Many", allowsMultipleEntries: true), movements: [first, moved(.entry, minutesBefore: 5)]) == .admitted)
    }

    @Test("an entry and an exit at the same millisecond count the entry first")
    func sameInstant() {
        let entry = moved(.entry, minutesBefore: 1)
        let exit = ListMovement(direction: .exit, prior: entry.prior)
        #expect(decide(general, movements: [exit, entry]) == .admitted, "entry, then exit: out, and may enter again")
    }

    @Test("each verdict is one of the station's decisions or a proposed one, with exit codes that collide with none")
    func stationAnswers() {
        let first = moved(.entry, minutesBefore: 3).prior
        let cases: [(ListVerdict, StationAnswer)] = [
            (.admitted, .decision(.admitted)),
            (.refused(.unknownCode), .decision(.unknownCode)),
            (.refused(.revoked), .decision(.revoked)),
            (.refused(.canceled), .decision(.revoked)),
            (.refused(.blocked), .decision(.revoked)),
            (.refused(.outsideWindow(validFrom: t0, validUntil: nil)), .decision(.outsideWindow(validFrom: t0, validUntil: nil))),
            (.refused(.productNotOnList(product: "VIP")), .decision(.notValidHere(accessType: "VIP"))),
            (.refused(.alreadyCheckedIn(first: first)), .decision(.alreadyCheckedIn(previous: first))),
            (.refused(.unpaid(admitAnyway: true)), .decision(.unpaid(admitAnyway: true))),
            (.refused(.unapproved), .decision(.unapproved)),
            (.refused(.ambiguous(count: 2)), .proposed(.ambiguous(count: 2))),
            (.refused(.needsOnline(.rules)), .decision(.needsOnline(.rules))),
        ]
        for (verdict, answer) in cases { #expect(verdict.stationAnswer == answer, "\(verdict)") }
        #expect(ListVerdict.refused(.otherDate).stationAnswer.exitCode == Decision.Kind.notValidHere.exitCode)

        let proposed = ProposedDecision.Kind.allCases.map(\.exitCode)
        let existing = Decision.Kind.allCases.map(\.exitCode)
        // kiosk's other statuses (README): 1, 64, 65, 69, 70, 74-78, and 22 for a failed badge.
        let others: [Int32] = [1, 22, 64, 65, 69, 70, 74, 75, 76, 77, 78]
        #expect(proposed == [18])
        #expect(existing == [0, 10, 11, 12, 13, 14, 15, 16, 17, 19, 20, 21])
        #expect(Set(existing).count == existing.count, "each decision its own status")
        #expect(Set(proposed + existing).isDisjoint(with: others))
        #expect(Set(proposed).isDisjoint(with: existing))
        #expect(Set(ProposedDecision.Kind.allCases.map(\.rawValue)).isDisjoint(with: Decision.Kind.allCases.map(\.rawValue)))
    }
}
