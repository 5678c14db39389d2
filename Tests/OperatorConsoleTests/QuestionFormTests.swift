import CheckInCore
import Testing
@testable import OperatorConsole

/// The console's question form: one question at a time, typed answers checked as they are given.
@Suite struct QuestionFormTests {
    let questions = QuestionsAtTheDoor(questions: [
        DoorQuestion(id: "1", text: "I accept the waiver", kind: .yesNo, required: true),
        DoorQuestion(id: "2", text: "Session", kind: .choice([.init(id: "21", label: "Morning"), .init(id: "22", label: "Afternoon")]), required: true),
        DoorQuestion(id: "3", text: "Lunch?", kind: .yesNo, required: false, condition: .init(question: "2", values: ["22"])),
    ])

    func type(_ text: String, into model: inout ConsoleModel) -> [ConsoleRequest] {
        var requests: [ConsoleRequest] = []
        for character in text { requests += model.handle(.character(character), now: 1) }
        return requests + model.handle(.enter, now: 1)
    }

    @Test func staffAnswerEachQuestionAndTheCodeGoesAgainWithTheTypedAnswers() {
        var model = ConsoleModel()
        model.askQuestions(QuestionForm(code: "WS-1", guestName: "Quinn", asked: questions))
        #expect(model.screen == .questions && model.questionForm?.current?.id == "1")
        #expect(type("n", into: &model).isEmpty)
        #expect(model.questionForm?.problem == "This must be yes to enter: the attendee sees staff")
        _ = model.handle(.backspace, now: 1)
        #expect(type("y", into: &model).isEmpty)
        #expect(model.questionForm?.options == ["1) Morning", "2) Afternoon"])
        // Morning: the lunch question (afternoon only) is not asked.
        #expect(type("1", into: &model) == [.answerQuestions(code: "WS-1", answers: ["1": "y", "2": "1"])])
        #expect(model.screen == .idle && model.questionForm == nil)
    }

    @Test func escapeLeavesTheEntryUnrecordedAndSelfServiceSendsTheAttendeeToStaff() {
        var model = ConsoleModel()
        model.askQuestions(QuestionForm(code: "WS-1", guestName: "Quinn", asked: questions))
        #expect(model.handle(.escape, now: 1).isEmpty)
        #expect(model.screen == .idle && model.notice == "Not checked in: the questions were not answered")
        var kiosk = ConsoleModel(pin: "1234", selfService: true)
        kiosk.askQuestions(QuestionForm(code: "WS-1", guestName: "Quinn", asked: questions))
        #expect(kiosk.screen == .idle, "the attendee does not answer at a self-service station")
        let panel = ResultPanel(decision: .questions(questions), guestName: "Quinn", accessType: "Workshop")
        #expect(panel.title == "Questions to answer before entry — please see staff")
    }
}
