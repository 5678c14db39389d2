/// What a check-in list's rules say about one entry (``ListRuleEvaluator``).
public enum ListRulesVerdict: Sendable, Hashable {
    /// The rules let the entry pass (the door's other rules still apply).
    case passes
    /// The rules refuse it; why, in the words pretix uses ("Maximum number of entries exceeded").
    case refused(explanation: String)
    /// The rules hold something this release does not evaluate (an operator, a variable, a
    /// value of the wrong kind): the entry is refused, never admitted, and the reason says what.
    case notUnderstood(String)
}
