import CheckInCore

extension Decision {
    /// What the answer adds about the ticket itself, for `kiosk checkin --json` and the
    /// headless `decision` line alike:
    /// - `"attention": {"note": "…"}` when the guest goes in and their ticket carries a note for
    ///   the staff;
    /// - `"valid": {"from": "…", "until": "…"}` (ISO 8601, either may be null) when the ticket is
    ///   refused outside its window.
    /// - `"answers": ["T-shirt size: M"]` when the guest goes in and the order has answers the door shows.
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
