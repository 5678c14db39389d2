import CheckInCore
import Foundation
import KioskStore
import PretixClient
import Testing
@testable import PretixSync

/// pretix's online answer as the door's (``PretixDoor/answer(_:guest:check:includePending:)``),
/// and what only pretix decides at a list (``PretixOnlineNeeds``).
struct PretixDoorAnswerTests {
    static let position = try! JSONDecoder().decode(PretixRedeemed.Position.self, from: Data("""
        {"id": 9, "order": "ABC12", "item": 1, "attendee_name": "Ada",
         "checkins": [{"datetime": "2026-11-28T09:30:00Z", "list": 2, "type": "entry", "device_id": 41},
                      {"datetime": "2026-11-28T08:15:00Z", "list": 2, "type": "entry", "device_id": 40}]}
        """.utf8))

    func answer(_ result: PretixRedeemResult, check: OnlineOnlyCheck? = nil) -> ShopAnswer? {
        PretixDoor.answer(result, guest: nil, check: check, includePending: true)
    }

    @Test func pretixsRefusalsBecomeTheDoorsDecisionsWithTheFirstEntryAndItsRulesInItsWords() {
        #expect(answer(.refused(.rules, explanation: "Maximum number of entries exceeded", position: nil))
                == .refused(.listRules(explanation: "Maximum number of entries exceeded")))
        guard case .refused(.alreadyCheckedIn(let first))? = answer(.refused(.alreadyRedeemed, explanation: nil, position: Self.position)) else {
            Issue.record("already redeemed is already checked in")
            return
        }
        #expect(first.station == "pretix device 40" && first.at == Timestamp(iso8601: "2026-11-28T08:15:00Z"))
        #expect(answer(.refused(.invalid, explanation: nil, position: nil)) == .refused(.unknownCode))
        #expect(answer(.refused(.blocked, explanation: nil, position: nil)) == .refused(.revoked))
        #expect(answer(.refused(.unpaid, explanation: nil, position: nil)) == .refused(.unpaid(admitAnyway: true)))
    }

    @Test func anAnswerTheStationCannotReadIsNoAnswerOrUnreachableWhereOnlyPretixDecides() {
        #expect(answer(.refused(.ambiguous, explanation: nil, position: nil)) == nil)
        #expect(answer(.refused(.other("medium_invalid"), explanation: nil, position: nil), check: .rules) == .unreachable(.rules))
    }

    @Test func pretixsQuestionsForATicketAreAskedAtTheDoor() throws {
        let waiver = try JSONDecoder().decode(PretixQuestion.self, from: Data("""
            {"id": 12, "question": {"en": "I accept the waiver"}, "type": "B", "required": true, "items": [5], "options": [],
             "identifier": "WAIVER", "ask_during_checkin": true, "show_during_checkin": false}
            """.utf8))
        let expected = QuestionsAtTheDoor(questions: [DoorQuestion(id: "12", text: "I accept the waiver", kind: .yesNo, required: true)])
        #expect(answer(.incomplete(questions: [waiver], position: nil)) == .refused(.questions(expected)))
    }

    @Test func onlyEntriesAtAListWithRulesTheStationCannotEvaluateArePretixsAlone() throws {
        #expect(PretixOnlineNeeds().check(direction: .entry) == nil)
        let ruled = PretixOnlineNeeds(listRules: true)
        #expect(ruled.check(direction: .entry) == .rules)
        #expect(ruled.check(direction: .exit) == nil)
        // Kept with the link: what a station started offline reads.
        let kept = try JSONDecoder().decode(PretixOnlineNeeds.self, from: JSONEncoder().encode(ruled))
        #expect(kept == ruled)
    }
}
