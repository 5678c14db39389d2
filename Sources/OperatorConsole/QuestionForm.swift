import CheckInCore

/// The ticket's questions at the door, asked one at a time on their own screen before the entry
/// is recorded (pretix: "ask during check-in"): staff read each question to the attendee and type
/// the answer; a question whose condition is not met is skipped. The answers, as typed, go with
/// the same code again (``ConsoleRequest/answerQuestions(code:answers:)``), where the door checks
/// them once more and records them with the check-in.
public struct QuestionForm: Sendable, Equatable {
    /// The ticket's code, presented again with the answers.
    public var code: String
    public var guestName: String
    public var questions: [DoorQuestion]
    /// The question on screen (an index of ``questions``).
    public internal(set) var index: Int
    /// What is typed for the question on screen.
    public internal(set) var line = ""
    /// Why the last answer was not taken, or what the question needs (a file: see staff).
    public internal(set) var problem: String?
    /// Answers so far, as typed and in their stored forms (conditions read the stored ones).
    var typed: [String: String] = [:]
    var stored: [String: String] = [:]

    public init(code: String, guestName: String, asked: QuestionsAtTheDoor) {
        self.code = code
        self.guestName = guestName
        questions = asked.questions
        index = 0
        index = nextAsked(from: 0) ?? 0
        problem = current.flatMap { asked.problems[$0.id] }
    }

    public var current: DoorQuestion? { questions.indices.contains(index) ? questions[index] : nil }

    /// Which of the asked questions this is, and how many are asked so far ("2 of 3").
    var position: (number: Int, of: Int) {
        let asked = questions.indices.filter { questions[$0].isAsked(after: stored) }
        return ((asked.firstIndex(of: index) ?? 0) + 1, asked.count)
    }

    /// The next question asked at or after `start`, given the answers so far.
    func nextAsked(from start: Int) -> Int? {
        questions.indices.first { $0 >= start && questions[$0].isAsked(after: stored) }
    }

    mutating func type(_ character: Character) {
        guard line.count < 500 else { return }
        line.append(character)
        problem = nil
    }

    mutating func erase() {
        if !line.isEmpty { line.removeLast() }
    }

    /// Enter: the typed answer taken and the next question shown; the answers, as typed, when
    /// it was the last one asked.
    mutating func submit() -> [String: String]? {
        guard let question = current else { return nil }
        switch question.answer(typed: line) {
        case .failure(let problem):
            self.problem = problem.message
            return nil
        case .success(let answer):
            typed[question.id] = line
            stored[question.id] = answer
        }
        // An answer may change which later questions are asked: forget those no longer asked.
        for later in questions[(index + 1)...] where !later.isAsked(after: stored) {
            typed[later.id] = nil
            stored[later.id] = nil
        }
        problem = nil
        guard let next = nextAsked(from: index + 1) else { return typed }
        index = next
        line = typed[questions[next].id] ?? ""
        return nil
    }

    /// ↑: back to the previous question asked, its answer ready to change.
    mutating func back() {
        guard let previous = questions.indices.last(where: { $0 < index && questions[$0].isAsked(after: stored) }) else { return }
        index = previous
        line = typed[questions[previous].id] ?? ""
        problem = nil
    }

    /// How the question on screen is answered, in a few words.
    var hint: String {
        guard let question = current else { return "" }
        let optional = question.required ? "" : " (Enter alone: no answer)"
        return switch question.kind {
        case .text, .multilineText: "Type the answer" + optional
        case .number: "Type a number" + optional
        case .yesNo: question.required ? "Y = yes (needed to enter)" : "Y = yes · N = no"
        case .choice: "Type the number of the answer" + optional
        case .multipleChoice: "Type the numbers of all that apply, separated by commas" + optional
        case .date: "Type the date as YYYY-MM-DD" + optional
        case .time: "Type the time as HH:MM" + optional
        case .dateTime: "Type date and time as YYYY-MM-DD HH:MM" + optional
        case .country: "Type the country's two-letter code (DE, US…)" + optional
        case .phone: "Type the phone number, with + and country code" + optional
        case .email: "Type the e-mail address" + optional
        case .file: question.required ? "A file is needed: the attendee sees staff (Esc)" : "A file cannot be given here: Enter to skip"
        }
    }

    /// The choices of a choice question, numbered as they are typed.
    var options: [String] {
        switch current?.kind {
        case .choice(let options)?, .multipleChoice(let options)?:
            options.enumerated().map { "\($0.offset + 1)) \(TerminalText.clean($0.element.label))" }
        default: []
        }
    }
}
