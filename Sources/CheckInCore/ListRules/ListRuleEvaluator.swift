import Foundation

/// Evaluates a check-in list's rules (JsonLogic with pretix's operators and variables) for one
/// entry, offline: a pure function of the rules and the facts (``ListRuleFacts``).
///
/// Standard JsonLogic: `var`, `==` `!=` `===` `!==`, `<` `<=` (also between) `>` `>=`, `!` `!!`,
/// `and` `or` `if`, `in`, `+` `-` `*` `/` `%` `min` `max` `cat`. pretix's: `objectList`, `lookup`,
/// `inList`, `buildTime` (`custom`, `customtime`, `date_from`, `date_to`, `date_admission`),
/// `isBefore` and `isAfter` (with a tolerance in minutes), `entries_since`, `entries_before`,
/// `entries_days_since`, `entries_days_before`. Variables: `product`, `variation`, `gate`, `now`,
/// `now_isoweekday`, `entries_number`, `entries_today`, `entries_days`, `minutes_since_last_entry`,
/// `minutes_since_first_entry` (-1 without an entry), `entry_status` (`present` or `absent`).
public enum ListRuleEvaluator {
    /// The verdict on an entry. Rules that are not JSON, or hold what this evaluator does not
    /// know, are ``ListRulesVerdict/notUnderstood(_:)``: refused, with the reason.
    public static func decide(rules json: String, facts: ListRuleFacts) -> ListRulesVerdict {
        guard let rules = RuleValue.parse(json) else { return .notUnderstood("the list's rules are not JSON") }
        return decide(rules: rules, facts: facts)
    }

    public static func decide(rules: RuleValue, facts: ListRuleFacts) -> ListRulesVerdict {
        if case .object(let members) = rules, members.isEmpty { return .passes }
        let evaluation = Evaluation(facts: facts)
        do {
            if try evaluation.evaluate(rules).isTruthy { return .passes }
            return .refused(explanation: evaluation.explain(rules))
        } catch {
            return .notUnderstood(error.description)
        }
    }

    /// Whether these rules hold only what this evaluator knows (checked once, when the list is read).
    public static func understands(_ json: String) -> Bool {
        guard let rules = RuleValue.parse(json) else { return false }
        return (try? RuleVocabulary.check(rules)) != nil
    }
}

/// Something in the rules this evaluator does not evaluate.
public struct RuleProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// The operators and variables the evaluator knows, to say up front whether it reads a list's rules.
enum RuleVocabulary {
    static let operators: Set<String> = [
        "var", "==", "!=", "===", "!==", "<", "<=", ">", ">=", "!", "!!", "and", "or", "if", "?:", "in", "+", "-", "*", "/", "%",
        "min", "max", "cat", "objectList", "lookup", "inList", "buildTime", "isBefore", "isAfter", "entries_since", "entries_before",
        "entries_days_since", "entries_days_before",
    ]
    static let variables: Set<String> = [
        "product", "variation", "gate", "now", "now_isoweekday", "entries_number", "entries_today", "entries_days",
        "minutes_since_last_entry", "minutes_since_first_entry", "entry_status",
    ]

    static func check(_ rule: RuleValue) throws(RuleProblem) {
        switch rule {
        case .array(let values):
            for value in values { try check(value) }
        case .object(let members):
            guard members.count == 1, let (name, arguments) = members.first else { throw RuleProblem("a rule with \(members.count) operators in one object") }
            guard operators.contains(name) else { throw RuleProblem("the operator \(name) is not known to this station") }
            if name == "var" {
                let variable = (arguments.asArguments.first ?? .null).text
                guard variables.contains(variable) else { throw RuleProblem("the variable \(variable) is not known to this station") }
            } else {
                try check(arguments)
            }
        default:
            return
        }
    }
}

extension RuleValue {
    /// An operator's arguments: the array, or the single value as a one-element list.
    var asArguments: [RuleValue] {
        if case .array(let values) = self { return values }
        return [self]
    }
}
