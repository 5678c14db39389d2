import CheckInCore
import Testing
@testable import OperatorConsole

/// The console's own decisions at the door: which event the picker starts on, which access type
/// a walk-in starts on, what answers the waiting-badges question, how a whole order is shown.
@Suite struct DoorDecisionsTests {
    func type(_ text: String, into model: inout ConsoleModel) {
        for character in text { model.handle(.character(character), now: 0) }
    }

    @Test func thePickerStartsOnTheEventOnNowNeverOnOneThatEnded() {
        let now = Timestamp(milliseconds: 1_800_000_000_000)
        let hour: Int64 = 3_600_000
        #expect(EventPhase.of(startsAt: now.adding(milliseconds: -27 * hour), endsAt: now.adding(milliseconds: -3 * hour), now: now) == .ended)
        #expect(EventPhase.of(startsAt: now.adding(milliseconds: -hour), endsAt: now.adding(milliseconds: 8 * hour), now: now) == .now)
        #expect(EventPhase.of(startsAt: now.adding(milliseconds: 20 * hour), endsAt: nil, now: now) == .upcoming)
        #expect(EventPhase.of(startsAt: now.adding(milliseconds: -30 * hour), endsAt: nil, now: now) == .ended, "no end: a day long")
        #expect(EventPhase.of(startsAt: nil, endsAt: nil, now: now) == .undated)
        #expect(EventPhase.preferred([.ended, .now, .upcoming]) == 1)
        #expect(EventPhase.preferred([.now, .now, .upcoming]) == 1, "the latest started of those on now (a day within a festival)")
        #expect(EventPhase.preferred([.ended, .upcoming]) == 1)
        #expect(EventPhase.preferred([.ended, .ended]) == nil)

        var model = ConsoleModel()
        _ = model.openEventPicker(signedInAs: "Ada")
        _ = model.apply(.events([EventChoice(id: "d1", name: "Day 1", when: "", phase: .ended)], for: .today))
        #expect(model.eventPicker?.selected == nil)
        #expect(model.frame().text.contains("Every event listed has ended"))
        #expect(model.handle(.enter, now: 0).isEmpty, "Enter never takes an event that ended by itself")
        model.handle(.down, now: 0)
        #expect(model.handle(.enter, now: 0) == [.useEvent(EventChoice(id: "d1", name: "Day 1", when: "", phase: .ended))], "chosen deliberately, it is used")
    }

    @Test func aWalkInStartsOnTheGeneralTypeOrTheMostHeldSingleEntryOneNeverOnACrewPass() {
        let crew = AccessChoice(id: "crew", name: "Crew", reentry: true, guests: 40)
        #expect(AccessChoice.walkInDefault([crew, AccessChoice(id: "general", name: "General", guests: 2), AccessChoice(id: "vip", name: "VIP", guests: 90)]) == "general")
        #expect(AccessChoice.walkInDefault([crew, AccessChoice(id: "day", name: "Day ticket", guests: 900), AccessChoice(id: "vip", name: "VIP", guests: 90)]) == "day")
        #expect(AccessChoice.walkInDefault([AccessChoice(id: "a", name: "A", guests: 5), AccessChoice(id: "b", name: "B", guests: 5)]) == "a")
        #expect(AccessChoice.walkInDefault([AccessChoice(id: "late", name: "Late", guests: 500, validNow: false), AccessChoice(id: "b", name: "B", guests: 1)]) == "b")
        #expect(AccessChoice.walkInDefault([crew]) == nil)

        var model = ConsoleModel(accessChoices: [crew])
        model.handle(.function(4), now: 0)
        type("Eve", into: &model)
        for _ in 0..<3 { model.handle(.enter, now: 0) }
        #expect(model.handle(.enter, now: 0).isEmpty, "only re-entry types: the operator chooses")
        #expect(model.notice?.contains("Access type") == true)
        model.handle(.right, now: 0)
        #expect(model.handle(.enter, now: 0) == [.registerWalkIn(WalkInDraft(name: "Eve", accessTypeID: "crew"))])
    }

    @Test func onlyATypedWordAnswersTheWaitingBadgesQuestionAndOnlyAnOfferedOne() {
        var model = ConsoleModel()
        model.askAboutStaleBadges(StaleBadgesQuestion(count: 2, choices: [.printAll, .cancel]))
        #expect(model.takeBells() == 1)
        type("CVL8TBDGM8HZVF2A", into: &model)
        #expect(model.handle(.enter, now: 0) == [.submitCode("CVL8TBDGM8HZVF2A")], "a code typed by hand is a code")
        #expect(model.staleQuestion != nil)
        type("other", into: &model)
        #expect(model.handle(.enter, now: 0) == [.submitCode("other")], "not offered: no second printer")
        #expect(!model.frame().text.contains("other printer"))
        type("Cancel", into: &model)
        #expect(model.handle(.enter, now: 0) == [.answerStaleBadges(.cancel)])
        model.askAboutStaleBadges(nil)
        #expect(model.staleQuestion == nil)
        // A code typed on the help goes to the code line, the help closes.
        model.handle(.function(1), now: 0)
        type("C1", into: &model)
        #expect(model.screen == .idle && model.input == "C1")
    }

    @Test func onlyTheTypedWordAdmitsAnUnpaidTicketAndTheQuestionGoesWithItsPanel() {
        var model = ConsoleModel()
        model.show(ResultPanel(tone: .refused, title: "Ticket not valid: the order is not paid yet — please see staff"), now: 0)
        model.askAdmitUnpaid(UnpaidQuestion(code: "SECRET-1", guestName: "Uma Unpaid"))
        #expect(model.frame().text.contains("To let Uma Unpaid in anyway, type ADMIT"))
        type("SECRET-2", into: &model)
        #expect(model.handle(.enter, now: 1) == [.submitCode("SECRET-2")], "a code typed by hand is a code")
        type(" Admit ", into: &model)
        #expect(model.handle(.enter, now: 1) == [.admitUnpaid(code: "SECRET-1")])
        #expect(model.unpaidQuestion == nil, "answered once")
        type("admit", into: &model)
        #expect(model.handle(.enter, now: 1) == [.submitCode("admit")], "with no question open, the word is a code like any other")

        model.show(ResultPanel(tone: .refused, title: "Not paid"), now: 10)
        model.askAdmitUnpaid(UnpaidQuestion(code: "SECRET-1", guestName: ""))
        model.tick(now: 10 + ConsoleModel.panelSeconds + 1)
        #expect(model.unpaidQuestion == nil, "gone with its panel")
        model.show(ResultPanel(tone: .refused, title: "Not paid"), now: 20)
        model.askAdmitUnpaid(UnpaidQuestion(code: "SECRET-1", guestName: ""))
        model.show(ResultPanel(tone: .welcome, title: "Welcome, Pete"), now: 21)
        #expect(model.unpaidQuestion == nil, "the next result closes it")
    }

    @Test func aWholeOrderShowsEveryMemberWithTheRefusedOneMarked() {
        var model = ConsoleModel()
        model.startOrder(OrderResults(order: "FAM01", members: [("A", "Ana Lima"), ("C", "Carla Lima")]))
        let shown0 = model.showOrderResult(code: "A", letIn: true, panel: ResultPanel(tone: .welcome, title: "Welcome, Ana Lima", detail: "Day pass"), now: 0)
        #expect(shown0)
        #expect(model.panel?.members == ["✓ Ana Lima — Day pass", "· Carla Lima — deciding"])
        let shown1 = model.showOrderResult(code: "C", letIn: false, panel: ResultPanel(tone: .information, title: "Already checked in — by Alex at Door 1, 09:02"), now: 0)
        #expect(shown1)
        #expect(model.panel?.title == "Order FAM01: 1 of 2 may go in — 1 refused, see below")
        #expect(model.panel?.tone == .warning)
        #expect(model.panel?.members.last == "✗ Carla Lima — Already checked in — by Alex at Door 1, 09:02")
        #expect(model.order == nil)
        let alone = model.showOrderResult(code: "X", letIn: true, panel: ResultPanel(tone: .welcome, title: "Welcome"), now: 0)
        #expect(!alone, "another scan shows alone")
    }
}
