import CheckInCore

/// The questions screen (``QuestionForm``): typed keys answer the question on screen, Enter takes
/// the answer, ↑ goes back, Esc leaves the entry unrecorded.
extension ConsoleModel {
    /// The door needs answers before it admits this ticket: open the form (operator mode only;
    /// an attendee at a self-service station is sent to staff by the panel).
    public mutating func askQuestions(_ form: QuestionForm) {
        guard mode == .operatorMode, form.current != nil else { return }
        questionForm = form
        unpaidQuestion = nil
        input = ""
        screen = .questions
    }

    mutating func handleQuestions(_ key: Key) -> [ConsoleRequest] {
        guard var form = questionForm else {
            screen = .idle
            return []
        }
        defer { if screen == .questions { questionForm = form } }
        switch key {
        case .character(let character):
            form.type(character)
        case .backspace:
            form.erase()
        case .control("u"):
            form.line = ""
        case .up, .backTab:
            form.back()
        case .enter:
            guard let answers = form.submit() else { return [] }
            closeQuestions()
            return [.answerQuestions(code: form.code, answers: answers)]
        case .escape:
            closeQuestions()
            notice = "Not checked in: the questions were not answered"
        default:
            break
        }
        return []
    }

    mutating func closeQuestions() {
        questionForm = nil
        screen = .idle
    }

    func questionsBody(into body: inout ConsoleBody) {
        guard let form = questionForm, let question = form.current else { return }
        let columns = size.columns
        let who = form.guestName.isEmpty ? "this ticket" : TerminalText.clean(form.guestName)
        let (number, count) = form.position
        body.wrapped("Before entry, ask \(who) — question \(number) of \(count)", .bold, columns: columns, limit: 2)
        body.wrapped(TerminalText.clean(question.text) + (question.required ? " *" : ""), .normal, columns: columns, limit: 3)
        for row in TerminalText.pack(form.options, width: columns - 4, separator: "   ") { body.add(row, at: 2) }
        let label = "Answer: "
        let shown = TerminalText.fit(String(form.line.suffix(columns - 12)), width: columns - label.count - 3)
        body.add(label, .bold)
        body.addToLastRow(shown, at: 1 + label.count)
        body.cursor = (body.lines.count - 1, 1 + label.count + TerminalText.width(shown))
        if let problem = form.problem { body.wrapped(problem, .alert, columns: columns, limit: 2) }
        for row in TerminalText.pack([form.hint, "Enter next", "↑ back", "Esc cancel (not checked in)"], width: columns - 2, separator: " · ") {
            body.add(row)
        }
    }
}
