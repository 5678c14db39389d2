import CheckInCore

extension Decision {
    /// What the answer adds about the ticket itself, for `kiosk checkin --json` and the
    /// headless `decision` line alike:
    /// - `"attention": {"note": "…"}` when the guest goes in and their ticket carries a note for
    ///   the staff;
    /// - `"valid": {"from": "…", "until": "…"}` (ISO 8601, either may be null) when the ticket is
    ///   refused outside its window.
    /// - `"answers": ["T-shirt size: M"]` when the guest goes in and the order has answers the door shows.
    /// - `"questions": [{"id", "text", "type", "required", "options"?, "problem"?…}]` when the
    ///   ticket's questions at the door are to be answered (``QuestionsAtTheDoor/json``).
    public func ticketJSON(attention: String?, answers: [String] = []) -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        if letsGuestIn, !answers.isEmpty { members["answers"] = .array(answers.map { .string(Sanitized.text($0)) }) }
        if letsGuestIn, let note = attention, !note.trimmedWhitespace().isEmpty {
            members["attention"] = ["note": .string(Sanitized.text(note))]
        }
        if case .unpaid(let admitAnyway) = self { members["admit_anyway"] = .bool(admitAnyway) }
        if case .outsideWindow(let from, let until) = self {
            members["valid"] = ["from": .optional(from?.iso8601), "until": .optional(until?.iso8601)]
        }
        if case .questions(let asked) = self { members["questions"] = asked.json }
        if case .listRules(let explanation) = self { members["explanation"] = .optional(explanation.map { Sanitized.text($0) }) }
        if case .needsOnline(let check) = self {
            switch check {
            case .rules: members["online_only"] = "rules"
            case .questions(let ids): members["online_only"] = "questions"; members["questions"] = .array(ids.map(JSONValue.string))
            case .ticket: members["online_only"] = "ticket"
            }
        }
        return members
    }
}

extension QuestionsAtTheDoor {
    /// The questions as a caller answers them (headless, `kiosk checkin --json`): each with its
    /// `id`, `text`, `type` (`text`, `multiline_text`, `number`, `yes_no`, `choice`,
    /// `multiple_choice`, `date`, `time`, `date_time`, `country`, `phone`, `email`, `file`),
    /// `required`, its `options` (`number`, `id`, `label`: typed as their number), its bounds,
    /// `asked_when` (another question's answer it depends on) and the `problem` of an answer
    /// given that did not answer it.
    public var json: JSONValue {
        .array(questions.map { question in
            var members: [String: JSONValue] = ["id": .string(question.id), "text": .string(Sanitized.text(question.text)),
                                                "type": .string(question.kind.name), "required": .bool(question.required)]
            switch question.kind {
            case .choice(let options), .multipleChoice(let options):
                members["options"] = .array(options.enumerated().map { index, option in
                    ["number": .int(index + 1), "id": .string(option.id), "label": .string(Sanitized.text(option.label))]
                })
            case .number(let min, let max):
                members["min"] = .optional(min)
                members["max"] = .optional(max)
            case .date(let earliest, let latest):
                members["min"] = .optional(earliest)
                members["max"] = .optional(latest)
            case .text(let length?), .multilineText(let length?):
                members["max_length"] = .int(length)
            default: break
            }
            if let condition = question.condition {
                members["asked_when"] = ["question": .string(condition.question), "answer_in": .array(condition.values.map(JSONValue.string))]
            }
            if let problem = problems[question.id] { members["problem"] = .string(problem) }
            return .object(members)
        })
    }
}
