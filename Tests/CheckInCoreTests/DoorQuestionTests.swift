import Testing
@testable import CheckInCore

/// Questions at the door: typed answers checked and stored as the ticket shop takes them, and
/// the rules asking them last.
@Suite("Questions at the door")
struct DoorQuestionTests: RulesFixture {
    let waiver = DoorQuestion(id: "1", text: "I accept the waiver", kind: .yesNo, required: true)
    let session = DoorQuestion(id: "2", text: "Session", kind: .choice([.init(id: "21", label: "Morning"), .init(id: "22", label: "Afternoon")]),
                               required: true)
    let diet = DoorQuestion(id: "3", text: "Diet", kind: .multipleChoice([.init(id: "31", label: "Vegan"), .init(id: "32", label: "No nuts")]),
                            required: false, condition: .init(question: "2", values: ["22"]))

    func stored(_ question: DoorQuestion, _ typed: String) -> String? { try? question.answer(typed: typed).get() }

    @Test("each kind takes what staff type and stores pretix's form")
    func typedAnswersAreStoredInTheShopsForm() {
        #expect(stored(waiver, "Y") == "True" && stored(waiver, " yes ") == "True")
        #expect(stored(waiver, "n") == nil, "a required yes/no is a waiver: no is no entry")
        #expect(stored(DoorQuestion(id: "9", text: "Newsletter", kind: .yesNo, required: false), "no") == "False")
        #expect(stored(session, "2") == "22" && stored(session, "morning") == "21" && stored(session, "3") == nil)
        #expect(stored(diet, "2, 1") == "32,31" && stored(diet, "") == "")
        #expect(stored(DoorQuestion(id: "4", text: "Age", kind: .number(min: "18", max: nil), required: true), "17") == nil)
        #expect(stored(DoorQuestion(id: "4", text: "Age", kind: .number(min: "18", max: nil), required: true), "21,5") == "21.5")
        #expect(stored(DoorQuestion(id: "5", text: "Born", kind: .date(earliest: nil, latest: nil), required: true), "2026-2-30") == nil)
        #expect(stored(DoorQuestion(id: "5", text: "Born", kind: .date(earliest: nil, latest: nil), required: true), "2000-2-29") == "2000-02-29")
        #expect(stored(DoorQuestion(id: "6", text: "Arrival", kind: .time, required: true), "9:05") == "09:05")
        #expect(stored(DoorQuestion(id: "7", text: "Country", kind: .country, required: true), "de") == "DE")
        #expect(stored(DoorQuestion(id: "7", text: "Country", kind: .country, required: true), "XX") == nil)
        #expect(stored(DoorQuestion(id: "8", text: "Phone", kind: .phone, required: false), "+49 (30) 123-4567") == "+49301234567")
        #expect(stored(DoorQuestion(id: "8", text: "Phone", kind: .phone, required: false), "call me") == nil)
        #expect(stored(DoorQuestion(id: "10", text: "E-mail", kind: .email, required: true), "ada@example.org") == "ada@example.org")
        #expect(stored(DoorQuestion(id: "11", text: "Photo", kind: .file, required: true), "") == nil, "a file: the attendee sees staff")
        #expect(stored(DoorQuestion(id: "11", text: "Photo", kind: .file, required: false), "") == "")
        #expect(stored(DoorQuestion(id: "12", text: "Escape", kind: .text(maxLength: nil), required: true), "\u{1B}[2Jhi") == "[2Jhi")
    }

    @Test("answers are complete when every asked question is answered; a condition not met asks nothing")
    func answersAreCompleteWhenEveryAskedQuestionIs() {
        let questions = [waiver, session, diet]
        #expect(QuestionsAtTheDoor.check(questions, typed: ["1": "y", "2": "1"]) == .complete(["1": "True", "2": "21"]))
        #expect(QuestionsAtTheDoor.check(questions, typed: ["1": "y", "2": "2", "3": "1"]) == .complete(["1": "True", "2": "22", "3": "31"]))
        guard case .needed(let asked) = QuestionsAtTheDoor.check(questions, typed: ["1": "y", "2": "2"]) else {
            Issue.record("the afternoon session asks about diet")
            return
        }
        #expect(asked.questions == questions && asked.problems.isEmpty)
        guard case .needed(let wrong) = QuestionsAtTheDoor.check(questions, typed: ["1": "no", "2": "1"]) else { return }
        #expect(wrong.problems["1"] == "This must be yes to enter: the attendee sees staff")
    }

    @Test("the questions come last: an entry the door refuses is not asked, one it admits is until answered")
    func questionsComeLast() {
        let needed = QuestionsAtTheDoor.check([waiver], typed: [:])
        func judge(_ answers: DoorAnswers?, movements: [CheckIn] = []) -> Decision {
            CheckInRules.judge(.init(deviceID: "door-1", at: t0, answers: answers), guest: guest(single), accessType: single,
                               movements: movements).decision
        }
        #expect(judge(needed) == .questions(QuestionsAtTheDoor(questions: [waiver])))
        #expect(judge(.complete(["1": "True"])) == .admitted)
        let earlier = CheckIn(key: IdempotencyKey(deviceID: "door-2", guestID: "g1", scannedAt: t0.adding(milliseconds: -3_600_000)),
                              station: "Door 2", operatorName: "Alex", source: .camera)
        #expect(judge(needed, movements: [earlier]).kind == .alreadyCheckedIn)
        // The shop asks before it looks at earlier entries; the door does not ask a guest who is in.
        let asked = QuestionsAtTheDoor(questions: [waiver])
        func shop(_ movements: [CheckIn]) -> Decision {
            CheckInRules.judge(.init(deviceID: "door-1", at: t0, shopAnswer: .refused(.questions(asked))), guest: guest(single),
                               accessType: single, movements: movements).decision
        }
        #expect(shop([]) == .questions(asked))
        #expect(shop([earlier]).kind == .alreadyCheckedIn)
    }
}
