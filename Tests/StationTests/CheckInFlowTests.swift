import CheckInCore
import OperatorConsole
import Station
import Testing

@Suite struct CheckInFlowTests {
    let guest = GuestSummary(id: "g1", name: "José Müller", accessType: "VIP", code: "DEMO-0001")

    func code(_ text: String, _ source: CheckInSource = .typed, at milliseconds: Int64 = 0) -> Presentation {
        Presentation(.code(text), source: source, at: Timestamp(milliseconds: milliseconds))
    }

    @Test func anAdmissionIsAnnouncedRightAfterTheCommitAndOnlyThenAreSyncAndPrinterTold() {
        var flow = CheckInFlow()
        let presentation = code("DEMO-0001")
        #expect(flow.present(presentation) == [.record(presentation)])
        let outcome = RecordedOutcome(decision: .admitted, guest: guest, badgeJobID: 12, recorded: true)
        #expect(flow.recorded(outcome) == [.feedback(Feedback(presentation: presentation, outcome: outcome, failure: nil)),
                                           .committed(badgeJobID: 12)])
        #expect(flow.phase == .ready, "the next attendee never waits for the printer")
        let panel = Feedback(presentation: presentation, outcome: outcome, failure: nil).panel
        #expect(panel.tone == .welcome)
        #expect(panel.badge == "Your badge is printing")
    }

    @Test(arguments: [
        Decision.unknownCode, .revoked, .notValidHere(accessType: "VIP"), .outsideWindow(validFrom: nil, validUntil: nil),
        .alreadyCheckedIn(previous: PriorCheckIn(by: "Alex", station: "Door 2", deviceID: "d", at: Timestamp(milliseconds: 1))),
        .duplicate(previous: PriorCheckIn(by: "Alex", station: "Door 2", deviceID: "d", at: Timestamp(milliseconds: 1))),
    ])
    func refusalsAndRepeatsCommitNothingForTheHubOrThePrinter(decision: Decision) {
        var flow = CheckInFlow()
        let presentation = code("X")
        _ = flow.present(presentation)
        let outcome = RecordedOutcome(decision: decision, guest: decision == .unknownCode ? nil : guest)
        #expect(flow.recorded(outcome) == [.feedback(Feedback(presentation: presentation, outcome: outcome, failure: nil))])
        #expect(Feedback(presentation: presentation, outcome: outcome, failure: nil).panel.badge == nil)
    }

    @Test func anAdmissionWithoutABadgeJobStillTellsTheHub() {
        var flow = CheckInFlow()
        _ = flow.present(code("A"))
        let outcome = RecordedOutcome(decision: .admitted, guest: guest, badgeJobID: nil, recorded: true)
        #expect(flow.recorded(outcome).last == .committed(badgeJobID: nil))
    }

    @Test func presentationsDuringACheckInWaitTheirTurnInOrder() {
        var flow = CheckInFlow()
        let first = code("A"), second = code("B"), third = code("C")
        _ = flow.present(first)
        #expect(flow.present(second).isEmpty)
        #expect(flow.present(third).isEmpty)
        #expect(flow.waiting == [second, third])
        let actions = flow.recorded(RecordedOutcome(decision: .unknownCode, guest: nil))
        #expect(actions.last == .record(second))
        #expect(flow.phase == .recording(second))
        #expect(flow.recorded(RecordedOutcome(decision: .unknownCode, guest: nil)).last == .record(third))
    }

    @Test func aFailedRecordIsAnnouncedAndTheNextPresentationProceeds() {
        var flow = CheckInFlow()
        let first = code("A"), second = code("B")
        _ = flow.present(first)
        _ = flow.present(second)
        let actions = flow.recordFailed("The disk is full")
        #expect(actions == [.feedback(Feedback(presentation: first, outcome: nil, failure: "The disk is full")), .record(second)])
    }

    @Test func cameraRereadsOfTheSameCodeAreIgnoredWithinTheWindowButTypedRepeatsAreNot() {
        var flow = CheckInFlow(repeatWindowMilliseconds: 3_000)
        _ = flow.present(code("DEMO-0001", .camera, at: 0))
        _ = flow.recorded(RecordedOutcome(decision: .unknownCode, guest: nil))
        #expect(flow.present(code("demo-0001", .camera, at: 1_000)) == [.ignoreRepeat(code("demo-0001", .camera, at: 1_000))])
        // Still held up: the window slides with every read.
        #expect(flow.present(code("DEMO-0001", .camera, at: 3_500)).first == .ignoreRepeat(code("DEMO-0001", .camera, at: 3_500)))
        #expect(flow.present(code("DEMO-0001", .camera, at: 7_000)) == [.record(code("DEMO-0001", .camera, at: 7_000))])
        _ = flow.recorded(RecordedOutcome(decision: .unknownCode, guest: nil))
        #expect(flow.present(code("DEMO-0001", .typed, at: 7_100)) == [.record(code("DEMO-0001", .typed, at: 7_100))])
    }

    @Test func aReadAtAnImpossibleTimeNeitherTrapsNorSuppressesTheNext() {
        var flow = CheckInFlow()
        _ = flow.present(code("A", .camera, at: Int64.min))
        _ = flow.recorded(RecordedOutcome(decision: .unknownCode, guest: nil))
        #expect(flow.present(code("A", .camera, at: Int64.max)) == [.record(code("A", .camera, at: Int64.max))])
    }

    @Test func resultsOutOfPhaseAreIgnored() {
        var flow = CheckInFlow()
        #expect(flow.recorded(RecordedOutcome(decision: .admitted, guest: guest)).isEmpty)
        #expect(flow.recordFailed("x").isEmpty)
        _ = flow.present(code("A"))
        #expect(flow.phase == .recording(code("A")))
    }
}
