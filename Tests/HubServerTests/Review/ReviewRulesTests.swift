import CheckInCore
import Foundation
import HubAPI
@testable import HubDashboard
@testable import HubServer
import Testing

/// The review page's decisions and words, without a store or a hub.
struct ReviewRulesTests {
    typealias Guest = MergeDecider.Guest
    static let walkIn = Guest(walkIn: true, deleted: false, mergedInto: nil)
    static let registration = Guest(walkIn: false, deleted: false, mergedInto: nil)

    struct Case: Sendable {
        var walkIn: Guest?
        var registration: Guest?
        var into: String
        var expected: MergeOutcome
    }

    @Test(arguments: [
        Case(walkIn: walkIn, registration: registration, into: "G1", expected: .merged),
        Case(walkIn: walkIn, registration: registration, into: "W1", expected: .sameGuest),
        Case(walkIn: nil, registration: registration, into: "G1", expected: .unknownWalkIn),
        Case(walkIn: registration, registration: registration, into: "G1", expected: .notAWalkIn),
        Case(walkIn: walkIn, registration: nil, into: "G1", expected: .unknownRegistration),
        Case(walkIn: walkIn, registration: Guest(walkIn: false, deleted: true, mergedInto: nil), into: "G1", expected: .unknownRegistration),
        Case(walkIn: Guest(walkIn: true, deleted: true, mergedInto: "G1"), registration: registration, into: "G1", expected: .alreadyMerged),
        Case(walkIn: Guest(walkIn: true, deleted: true, mergedInto: "G7"), registration: registration, into: "G1", expected: .mergedElsewhere("G7")),
        Case(walkIn: Guest(walkIn: true, deleted: true, mergedInto: nil), registration: registration, into: "G1", expected: .unknownWalkIn),
    ])
    func aWalkInIsMergedOnlyIntoAnotherGuestStillOnTheRoster(_ test: Case) {
        #expect(MergeDecider.decide(walkInID: "W1", registrationID: test.into, walkIn: test.walkIn, registration: test.registration) == test.expected)
        #expect(test.expected.changed == (test.expected == .merged))
    }

    static let time = WebTime(timeZone: "Europe/Berlin")
    static let at = Timestamp(milliseconds: 1_790_000_000_000)  // 2026-09-21 14:13:20 UTC

    static func item(_ kind: ReviewItem.Kind, decision: String, mark: ReviewMark? = nil, registration: ReviewGuest? = nil) -> ReviewItem {
        ReviewItem(kind: kind, subject: "dev-b/G1/\(at.milliseconds)", guest: ReviewGuest(id: "G1", name: "Ada", code: "G1"),
                   upload: ReviewUpload(deviceID: "dev-b", guestID: "G1", at: at, station: "Door B", operatorName: "Bea"),
                   decision: decision, first: kind == .conflict ? ReviewUpload(deviceID: "dev-a", guestID: "G1", at: at.adding(milliseconds: -60_000),
                                                                               station: "Door A", operatorName: "Alex") : nil,
                   registration: registration, mark: mark)
    }

    @Test func itemsWaitingForALookAreSplitByKindAndDecidedOnesGoUnderReviewed() {
        let olga = ReviewMark(resolution: .reviewed, actorID: "s1", actorName: "Olga", at: Self.at)
        let board = ReviewBoard([
            Self.item(.conflict, decision: "already_checked_in"), Self.item(.refusal, decision: "revoked"),
            Self.item(.flaggedExit, decision: "exit_without_entry"), Self.item(.refusal, decision: "unknown_code", mark: olga),
        ], time: Self.time)
        #expect(board.conflicts.count == 1 && board.refusals.count == 1 && board.exits.count == 1 && board.walkIns.isEmpty)
        #expect(board.toReview == 3)
        #expect(board.reviewed.map(\.testName) == ["reviewed"])
        #expect(board.reviewed.first?.mark == "Reviewed by Olga at 2026-09-21 16:13", "in the event's zone")
        let conflict = board.conflicts[0]
        #expect(conflict.testName == "conflict")
        #expect(conflict.first == "Door A · Alex · 2026-09-21 16:12:20")
        #expect(conflict.upload == "Door B · Bea · 2026-09-21 16:13:20")
        #expect(conflict.undoKey == "dev-a/G1/\(Self.at.milliseconds - 60_000)", "the first admission is the one to undo")
        #expect(board.refusals[0].decision == "Refused: the ticket is revoked.")
    }

    @Test func onlyAPossibleDuplicateNotMergedYetOffersTheMerge() {
        let registration = ReviewGuest(id: "G7", name: "Ada Lovelace", code: "REG7", email: "ada@example.org")
        let open = ReviewBoard.row(Self.item(.walkIn, decision: "possible_duplicate", registration: registration), time: Self.time)
        #expect(open.canMerge && open.registrationID == "G7")
        #expect(open.registration == "Ada Lovelace · REG7 · ada@example.org")
        let unknownType = ReviewBoard.row(Self.item(.walkIn, decision: "access_type"), time: Self.time)
        #expect(!unknownType.canMerge)
        let merged = ReviewBoard.row(Self.item(.walkIn, decision: "possible_duplicate",
                                               mark: ReviewMark(resolution: .merged, actorID: "s1", actorName: "Olga", at: Self.at),
                                               registration: registration), time: Self.time)
        #expect(!merged.canMerge)
        #expect(merged.mark == "Merged into Ada Lovelace · REG7 · ada@example.org by Olga at 2026-09-21 16:13")
    }

    @Test func aRedirectNamesItsNoticeByAFixedWordAndTheEventEscaped() {
        #expect(ReviewPage.path("ev1", .merged) == "/events/ev1/review?done=merged")
        #expect(ReviewPage.Notice(rawValue: "<script>") == nil)
    }
}
