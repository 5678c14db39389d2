import CheckInCore
import OperatorConsole
import Station
import Testing

@Suite struct CheckInFlowTests {
    let badge = BadgeContent(guestID: "g1", name: "José Müller", company: "ACME", accessType: "VIP", code: "DEMO-0001")

    func code(_ text: String, _ source: CheckInSource = .typed, at milliseconds: Int64 = 0) -> Presentation {
        Presentation(.code(text), source: source, at: Timestamp(milliseconds: milliseconds))
    }

    @Test func admittedGuestIsRecordedThenPrintedThenAnnounced() {
        var flow = CheckInFlow(policy: .onAdmission)
        let presentation = code("DEMO-0001")
        #expect(flow.present(presentation) == [.record(presentation)])
        #expect(flow.recorded(RecordedOutcome(decision: .admitted, badge: badge)) == [.printBadge(badge)])
        #expect(flow.phase == .printing(presentation, RecordedOutcome(decision: .admitted, badge: badge)))
        let actions = flow.printed(.printed("a.pdf"))
        #expect(actions == [.feedback(Feedback(presentation: presentation, outcome: RecordedOutcome(decision: .admitted, badge: badge), badge: .printed("a.pdf"), failure: nil))])
        #expect(flow.phase == .ready)
    }

    @Test(arguments: [
        Decision.unknownCode, .revoked, .notValidHere(accessType: "VIP"), .outsideWindow(validFrom: nil, validUntil: nil),
        .alreadyCheckedIn(previous: PriorCheckIn(by: "Alex", station: "Door 2", deviceID: "d", at: Timestamp(milliseconds: 1))),
        .duplicate(previous: PriorCheckIn(by: "Alex", station: "Door 2", deviceID: "d", at: Timestamp(milliseconds: 1))),
    ])
    func refusalsAndRepeatsNeverPrint(decision: Decision) {
        var flow = CheckInFlow(policy: .onAdmission)
        let presentation = code("X")
        _ = flow.present(presentation)
        let outcome = RecordedOutcome(decision: decision, badge: decision == .unknownCode ? nil : badge)
        #expect(flow.recorded(outcome) == [.feedback(Feedback(presentation: presentation, outcome: outcome, badge: nil, failure: nil))])
    }

    @Test(arguments: [(PrintPolicy.onAdmission, true, true), (.walkInsOnly, false, true), (.onRequest, false, false)])
    func printPolicyDecidesWhichAdmissionsGetABadge(policy: PrintPolicy, printsScan: Bool, printsWalkIn: Bool) {
        var flow = CheckInFlow(policy: policy)
        _ = flow.present(code("DEMO-0001"))
        let scanActions = flow.recorded(RecordedOutcome(decision: .admitted, badge: badge))
        #expect(scanActions.contains(.printBadge(badge)) == printsScan)
        if printsScan { _ = flow.printed(.printed("x")) }
        let walkIn = Presentation(.walkIn(WalkInDraft(name: "Eve", accessTypeID: "general")), source: .walkIn, at: Timestamp(milliseconds: 5))
        _ = flow.present(walkIn)
        #expect(flow.recorded(RecordedOutcome(decision: .admitted, badge: badge)).contains(.printBadge(badge)) == printsWalkIn)
    }

    @Test func presentationsDuringACheckInWaitTheirTurnInOrder() {
        var flow = CheckInFlow()
        let first = code("A"), second = code("B"), third = code("C")
        _ = flow.present(first)
        #expect(flow.present(second).isEmpty)
        #expect(flow.present(third).isEmpty)
        #expect(flow.waiting == [second, third])
        let actions = flow.recorded(RecordedOutcome(decision: .unknownCode, badge: nil))
        #expect(actions.last == .record(second))
        #expect(flow.phase == .recording(second))
        #expect(flow.recorded(RecordedOutcome(decision: .unknownCode, badge: nil)).last == .record(third))
    }

    @Test func aFailedRecordIsAnnouncedAndTheNextPresentationProceeds() {
        var flow = CheckInFlow()
        let first = code("A"), second = code("B")
        _ = flow.present(first)
        _ = flow.present(second)
        let actions = flow.recordFailed("The disk is full")
        #expect(actions == [.feedback(Feedback(presentation: first, outcome: nil, badge: nil, failure: "The disk is full")), .record(second)])
    }

    @Test func cameraRereadsOfTheSameCodeAreIgnoredWithinTheWindowButTypedRepeatsAreNot() {
        var flow = CheckInFlow(repeatWindowMilliseconds: 3_000)
        _ = flow.present(code("DEMO-0001", .camera, at: 0))
        _ = flow.recorded(RecordedOutcome(decision: .unknownCode, badge: nil))
        #expect(flow.present(code("demo-0001", .camera, at: 1_000)) == [.ignoreRepeat(code("demo-0001", .camera, at: 1_000))])
        // Still held up: the window slides with every read.
        #expect(flow.present(code("DEMO-0001", .camera, at: 3_500)).first == .ignoreRepeat(code("DEMO-0001", .camera, at: 3_500)))
        #expect(flow.present(code("DEMO-0001", .camera, at: 7_000)) == [.record(code("DEMO-0001", .camera, at: 7_000))])
        _ = flow.recorded(RecordedOutcome(decision: .unknownCode, badge: nil))
        #expect(flow.present(code("DEMO-0001", .typed, at: 7_100)) == [.record(code("DEMO-0001", .typed, at: 7_100))])
    }

    @Test func resultsOutOfPhaseAreIgnored() {
        var flow = CheckInFlow()
        #expect(flow.recorded(RecordedOutcome(decision: .admitted, badge: badge)).isEmpty)
        #expect(flow.printed(.printed("x")).isEmpty)
        #expect(flow.recordFailed("x").isEmpty)
        _ = flow.present(code("A"))
        #expect(flow.printed(.printed("x")).isEmpty)
        #expect(flow.phase == .recording(code("A")))
    }

    @Test func aFailedBadgeStillAnnouncesTheAdmission() {
        var flow = CheckInFlow()
        _ = flow.present(code("A"))
        _ = flow.recorded(RecordedOutcome(decision: .admitted, badge: badge))
        guard case .feedback(let feedback) = flow.printed(.failed("out of labels")).first else {
            Issue.record("no feedback")
            return
        }
        #expect(feedback.outcome?.decision == .admitted)
        #expect(feedback.panel.tone == .welcome)
        #expect(feedback.panel.detail.contains("out of labels"))
    }
}
