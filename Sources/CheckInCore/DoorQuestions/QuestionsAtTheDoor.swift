/// The questions one entry still needs answered, and what was wrong with the answers given to
/// them, if any: what ``Decision/questions(_:)`` hands to whoever asks them (the console's form,
/// a headless caller, `kiosk checkin --answer`).
public struct QuestionsAtTheDoor: Sendable, Hashable {
    /// All the ticket's questions, in the shop's order (a condition refers to an earlier one).
    public var questions: [DoorQuestion]
    /// The answers given that did not answer their question: question id → what to type instead.
    public var problems: [String: String]

    public init(questions: [DoorQuestion], problems: [String: String] = [:]) {
        self.questions = questions
        self.problems = problems
    }

    /// Typed answers checked against a ticket's questions: every asked question answered (the
    /// answers in their stored forms, a question not asked left out), or what is still needed.
    /// A question whose condition is not met is not asked; one not required may stay empty.
    public static func check(_ questions: [DoorQuestion], typed: [String: String]) -> DoorAnswers {
        guard !questions.isEmpty else { return .complete([:]) }
        var answers: [String: String] = [:]
        var problems: [String: String] = [:]
        var missing = false
        for question in questions where question.isAsked(after: answers) {
            guard let given = typed[question.id] else {
                missing = true
                continue
            }
            switch question.answer(typed: given) {
            case .success(let stored): answers[question.id] = stored
            case .failure(let problem): problems[question.id] = problem.message
            }
        }
        return missing || !problems.isEmpty ? .needed(QuestionsAtTheDoor(questions: questions, problems: problems)) : .complete(answers)
    }
}

/// The answers to an entry's questions: complete, or the questions still to ask.
public enum DoorAnswers: Sendable, Hashable {
    /// Every asked question answered: question id → stored answer (what the check-in carries to the shop).
    case complete([String: String])
    case needed(QuestionsAtTheDoor)
}
