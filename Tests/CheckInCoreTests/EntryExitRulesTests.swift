import PropertyBased
import Testing
@testable import CheckInCore

/// Exits and the way back in: what `CheckInRules.judge` records and flags.
@Suite("Entry and exit decisions")
struct EntryExitRulesTests: RulesFixture {
    func move(_ direction: Direction, at seconds: Int64, device: String = "door-1") -> CheckIn {
        CheckIn(key: IdempotencyKey(deviceID: device, guestID: "g1", scannedAt: t0.adding(milliseconds: seconds * 1000)),
                station: "Door 1", operatorName: "Alex", source: .camera, direction: direction)
    }

    func judge(_ type: AccessType, _ direction: Direction, at seconds: Int64, after movements: [CheckIn],
               guest: Guest? = nil, admitted: Set<String>? = nil) -> CheckInRules.Ruling {
        CheckInRules.judge(
            .init(deviceID: "door-2", at: t0.adding(milliseconds: seconds * 1000), direction: direction, admittedAccessTypes: admitted),
            guest: guest ?? self.guest(type), accessType: type, movements: movements)
    }

    @Test func anExitBySomeoneInsideIsRecordedWithoutAFlag() {
        #expect(judge(single, .exit, at: 600, after: [move(.entry, at: 0)]) == .init(.admitted))
    }

    @Test("an exit by someone not inside is recorded and flagged",
          arguments: [[], [Direction.entry, .exit], [.exit], [.entry, .exit, .exit]])
    func exitWithoutEntry(history: [Direction]) {
        let movements = history.enumerated().map { move($0.element, at: Int64($0.offset) * 100) }
        let ruling = judge(single, .exit, at: 1_000, after: movements)
        #expect(ruling.decision == .admitted, "the person did leave: recorded")
        #expect(ruling.flag == .exitWithoutEntry)
    }

    @Test func anExitIsJudgedAtItsOwnScanTimeNotByLaterMovements() {
        // A station that was offline uploads an exit made before the entry and exit others already sent.
        #expect(judge(single, .exit, at: 50, after: [move(.entry, at: 0), move(.exit, at: 100)]).flag == nil)
        #expect(judge(single, .exit, at: 50, after: [move(.entry, at: 100)]).flag == .exitWithoutEntry)
    }

    @Test func anEntryAndAnExitOfTheSameMillisecondAreEntryThenExit() {
        #expect(judge(single, .exit, at: 0, after: [move(.entry, at: 0)]).flag == nil)
        #expect(judge(single, .exit, at: 10, after: [move(.exit, at: 0), move(.entry, at: 0)]).flag == .exitWithoutEntry)
    }

    @Test func nobodyIsKeptInsideByTheTicketsValidityOrTheStationsAccessTypes() {
        let dayOne = AccessType(id: "day1", name: "Day 1", validFrom: t0, validUntil: t0.adding(milliseconds: 3_600_000))
        let late = judge(dayOne, .exit, at: 7_200, after: [move(.entry, at: 0)], admitted: ["vip"])
        #expect(late == .init(.admitted))
    }

    @Test func unknownCodesAndRevokedTicketsAreRefusedBothWays() {
        for direction in Direction.allCases {
            #expect(CheckInRules.judge(.init(deviceID: "d", at: t0, direction: direction), guest: nil, accessType: nil, movements: []) == .init(.unknownCode))
            #expect(judge(single, direction, at: 0, after: [], guest: guest(single, revoked: true)) == .init(.revoked))
        }
    }

    @Test func aSingleEntryTicketCannotComeBackAfterAnExit() {
        let history = [move(.entry, at: 0), move(.exit, at: 600)]
        #expect(judge(single, .entry, at: 1_200, after: history) == .init(.alreadyCheckedIn(previous: history[0].summary)))
        // Even seconds after leaving (within the tolerance window of the entry): not a duplicate of it.
        #expect(judge(single, .entry, at: 20, after: [move(.entry, at: 0), move(.exit, at: 10)]).decision.kind == .alreadyCheckedIn)
    }

    @Test func aReentryTicketIsAdmittedBackAfterAnExit() {
        #expect(judge(reentry, .entry, at: 1_200, after: [move(.entry, at: 0), move(.exit, at: 600)]) == .init(.admitted))
        // Back within the window of the first entry: a new entry, not a duplicate that would leave them counted outside.
        #expect(judge(reentry, .entry, at: 20, after: [move(.entry, at: 0), move(.exit, at: 10)]) == .init(.admitted))
    }

    @Test func aSingleEntryTicketThatAllowsEntryAfterExitAdmitsOneStayAtATime() {
        let afterExit = AccessType(id: "list", name: "Paid only", entryAfterExit: true)
        let left = [move(.entry, at: 0), move(.exit, at: 600)]
        #expect(judge(afterExit, .entry, at: 1_200, after: left) == .init(.admitted), "left, so back in")
        #expect(judge(afterExit, .entry, at: 20, after: [move(.entry, at: 0), move(.exit, at: 10)]) == .init(.admitted),
                "back within the window of the first entry: a new entry, not a duplicate")
        let inside = [move(.entry, at: 0), move(.exit, at: 600), move(.entry, at: 1_200)]
        #expect(judge(afterExit, .entry, at: 2_400, after: inside) == .init(.alreadyCheckedIn(previous: inside[0].summary)),
                "inside again: a second entry is refused, naming the first")
        #expect(judge(afterExit, .entry, at: 300, after: left) == .init(.alreadyCheckedIn(previous: left[0].summary)),
                "judged at its own scan time: before the exit, the guest was inside")
    }

    @Test func twoDoorsScanningOneEntryStayOneEntry() {
        let first = move(.entry, at: 0)
        #expect(judge(reentry, .entry, at: 10, after: [first]) == .init(.duplicate(previous: first.summary)))
        #expect(judge(single, .entry, at: 10, after: [first, move(.exit, at: 3_600)]) == .init(.duplicate(previous: first.summary)),
                "an exit after both scans does not separate them")
    }

    @Test func decideIsJudgeWithoutTheFlag() {
        let history = [move(.entry, at: 0), move(.exit, at: 600)]
        for direction in Direction.allCases {
            let decision = CheckInRules.decide(.init(deviceID: "door-2", at: t0.adding(milliseconds: 900_000), direction: direction),
                                               guest: guest(single), accessType: single, admissions: history)
            #expect(decision == judge(single, direction, at: 900, after: history).decision)
        }
    }

    /// A door's day played in order, each movement recorded as decided: exits are flagged exactly
    /// when the model says the guest is outside, a re-entry ticket always gets back in, a
    /// single-entry one only the first time, and folding the last recorded movement (as the hub's
    /// `inside` does) agrees with the model.
    @Test(arguments: [false, true])
    func aDoorsDayMatchesTheInsideModel(reentryTicket: Bool) async {
        let type = reentryTicket ? reentry : single
        let days = zip(Gen.bool().array(of: 1...12), Gen.int64(in: 31...7_200).array(of: 12))
        await propertyCheck(count: 500, input: days) { exits, gaps in
            var recorded: [CheckIn] = []
            var inside = false, admittedBefore = false, at: Int64 = 0
            for (index, isExit) in exits.enumerated() {
                at += gaps[index]
                let direction: Direction = isExit ? .exit : .entry
                let ruling = judge(type, direction, at: at, after: recorded)
                if isExit {
                    #expect(ruling.decision == .admitted)
                    #expect((ruling.flag == .exitWithoutEntry) == !inside)
                    inside = false
                } else if !admittedBefore || reentryTicket {
                    #expect(ruling == .init(.admitted))
                    inside = true
                    admittedBefore = true
                } else {
                    #expect(ruling.decision.kind == .alreadyCheckedIn)
                    continue
                }
                recorded.append(move(direction, at: at))
            }
            let last = recorded.max(by: CheckInRules.precedes)
            #expect((last?.direction == .entry) == inside)
        }
    }
}
