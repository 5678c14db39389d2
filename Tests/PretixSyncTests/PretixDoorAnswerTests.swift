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
        #expect(answer(.incomplete(questions: [], position: nil)) == .unreachable(.questions([])))
    }

    @Test func onlyEntriesAtAListWithRulesOrOfProductsWithQuestionsArePretixsAlone() throws {
        let plain = PretixOnlineNeeds(questions: [5: ["12"]])
        #expect(plain.check(item: 1, direction: .entry) == nil)
        #expect(plain.check(item: 5, direction: .entry) == .questions(["12"]))
        #expect(plain.check(item: 5, direction: .exit) == nil)
        let ruled = PretixOnlineNeeds(listRules: true)
        #expect(ruled.check(item: nil, direction: .entry) == .rules)
        #expect(ruled.check(item: 1, direction: .exit) == nil)
        // Kept with the link: what a station started offline reads.
        let kept = try JSONDecoder().decode(PretixOnlineNeeds.self, from: JSONEncoder().encode(plain))
        #expect(kept == plain)
    }
}
