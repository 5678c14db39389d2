import Foundation

/// One evaluation of a list's rules against one entry's facts.
struct Evaluation {
    let facts: ListRuleFacts

    func evaluate(_ rule: RuleValue) throws(RuleProblem) -> RuleValue {
        switch rule {
        case .array(let values):
            var evaluated: [RuleValue] = []
            for value in values { evaluated.append(try evaluate(value)) }
            return .array(evaluated)
        case .object(let members):
            guard members.count == 1, let (name, arguments) = members.first else { throw RuleProblem("a rule with \(members.count) operators in one object") }
            return try apply(name, arguments.asArguments)
        default:
            return rule
        }
    }

    private func values(_ arguments: [RuleValue]) throws(RuleProblem) -> [RuleValue] {
        var evaluated: [RuleValue] = []
        for argument in arguments { evaluated.append(try evaluate(argument)) }
        return evaluated
    }

    private func number(_ value: RuleValue, _ operation: String) throws(RuleProblem) -> Double {
        guard let number = value.number else { throw RuleProblem("\(operation) needs numbers") }
        return number
    }

    private func time(_ value: RuleValue, _ operation: String) throws(RuleProblem) -> Timestamp {
        guard case .time(let time) = value else { throw RuleProblem("\(operation) needs times (buildTime or now)") }
        return time
    }

    private func apply(_ name: String, _ arguments: [RuleValue]) throws(RuleProblem) -> RuleValue {
        switch name {
        case "and":
            var last = RuleValue.bool(true)
            for argument in arguments {
                last = try evaluate(argument)
                if !last.isTruthy { return last }
            }
            return last
        case "or":
            var last = RuleValue.bool(false)
            for argument in arguments {
                last = try evaluate(argument)
                if last.isTruthy { return last }
            }
            return last
        case "if", "?:":
            var index = 0
            while index + 1 < arguments.count {
                if try evaluate(arguments[index]).isTruthy { return try evaluate(arguments[index + 1]) }
                index += 2
            }
            return index < arguments.count ? try evaluate(arguments[index]) : .null
        default:
            break
        }
        let args = try values(arguments)
        func argument(_ index: Int) -> RuleValue { index < args.count ? args[index] : .null }
        switch name {
        case "var":
            return try variable(argument(0).text, default: args.count > 1 ? args[1] : nil)
        case "==": return .bool(argument(0).looselyEquals(argument(1)))
        case "!=": return .bool(!argument(0).looselyEquals(argument(1)))
        case "===": return .bool(argument(0) == argument(1))
        case "!==": return .bool(argument(0) != argument(1))
        case "<", "<=", ">", ">=":
            let numbers = try args.map { (value) throws(RuleProblem) -> Double in try number(value, name) }
            guard numbers.count >= 2 else { throw RuleProblem("\(name) needs two values") }
            func holds(_ a: Double, _ b: Double) -> Bool {
                switch name {
                case "<": a < b
                case "<=": a <= b
                case ">": a > b
                default: a >= b
                }
            }
            return .bool(zip(numbers, numbers.dropFirst()).allSatisfy(holds))
        case "!": return .bool(!argument(0).isTruthy)
        case "!!": return .bool(argument(0).isTruthy)
        case "in":
            switch argument(1) {
            case .array(let values): return .bool(values.contains { $0.looselyEquals(argument(0)) })
            case .string(let text): return .bool(text.contains(argument(0).text))
            default: return .bool(false)
            }
        case "+", "*":
            var result: Double = name == "+" ? 0 : 1
            for value in args { result = name == "+" ? result + (try number(value, name)) : result * (try number(value, name)) }
            return .number(result)
        case "-":
            if args.count == 1 { return .number(-(try number(argument(0), name))) }
            return .number(try number(argument(0), name) - number(argument(1), name))
        case "/": return .number(try number(argument(0), name) / number(argument(1), name))
        case "%": return .number(try number(argument(0), name).truncatingRemainder(dividingBy: number(argument(1), name)))
        case "min", "max":
            let numbers = try args.map { (value) throws(RuleProblem) -> Double in try number(value, name) }
            guard let result = name == "min" ? numbers.min() : numbers.max() else { return .null }
            return .number(result)
        case "cat": return .string(args.map(\.text).joined())
        case "objectList": return .array(args)
        case "lookup":
            // pretix names an object by its model, id and name: the id is what compares.
            return .string(argument(1).text)
        case "inList":
            guard case .array(let values) = argument(1) else { throw RuleProblem("inList needs a list") }
            return .bool(values.contains { $0.looselyEquals(argument(0)) })
        case "buildTime": return .time(try buildTime(argument(0).text, argument(1)))
        case "isBefore", "isAfter":
            let (a, b) = (try time(argument(0), name), try time(argument(1), name))
            let tolerance = Int64(((argument(2).number ?? 0) * 60_000).rounded())
            return .bool(name == "isBefore" ? a < b.adding(milliseconds: tolerance) : b < a.adding(milliseconds: tolerance))
        case "entries_since", "entries_before", "entries_days_since", "entries_days_before":
            let cutoff = try time(argument(0), name)
            let entries = facts.entries.filter { name.hasSuffix("since") ? $0 >= cutoff : $0 < cutoff }
            return .number(Double(name.contains("days") ? Set(entries.map(facts.day)).count : entries.count))
        default:
            throw RuleProblem("the operator \(name) is not known to this station")
        }
    }

    func variable(_ name: String, default fallback: RuleValue?) throws(RuleProblem) -> RuleValue {
        let entries = facts.entries
        switch name {
        case "product": return .string(facts.product)
        case "variation": return facts.variation.map(RuleValue.string) ?? .null
        case "gate": return facts.gate.map(RuleValue.string) ?? .null
        case "now": return .time(facts.now)
        case "now_isoweekday": return .number(Double(facts.isoWeekday))
        case "entries_number": return .number(Double(entries.count))
        case "entries_today":
            let midnight = facts.startOfToday
            return .number(Double(entries.filter { $0 >= midnight }.count))
        case "entries_days": return .number(Double(Set(entries.map(facts.day)).count))
        case "minutes_since_last_entry", "minutes_since_first_entry":
            guard let entry = name.contains("last") ? entries.max() : entries.min() else { return .number(-1) }
            return .number((Double(facts.now.milliseconds(since: entry)) / 60_000).rounded(.down))
        case "entry_status":
            let last = facts.movements.max { $0.at != $1.at ? $0.at < $1.at : ($0.direction == .entry && $1.direction == .exit) }
            return .string(last?.direction == .entry ? "present" : "absent")
        default:
            if let fallback { return fallback }
            throw RuleProblem("the variable \(name) is not known to this station")
        }
    }

    /// pretix's `buildTime`: an instant, today's time of day, or one of the event's times.
    func buildTime(_ kind: String, _ value: RuleValue) throws(RuleProblem) -> Timestamp {
        switch kind {
        case "custom":
            guard let time = Timestamp(iso8601: value.text) else { throw RuleProblem("buildTime custom needs an ISO 8601 time, not \(value.text)") }
            return time
        case "customtime":
            let parts = value.text.split(separator: ":").map { Int($0.prefix(2)) }
            guard parts.count >= 2, let hour = parts[0], let minute = parts[1] else { throw RuleProblem("buildTime customtime needs HH:MM, not \(value.text)") }
            let calendar = facts.calendar
            var components = calendar.dateComponents([.year, .month, .day], from: facts.now.date)
            (components.hour, components.minute, components.second) = (hour, minute, parts.count > 2 ? parts[2] ?? 0 : 0)
            guard let date = calendar.date(from: components) else { throw RuleProblem("buildTime customtime \(value.text) is no time of day") }
            return Timestamp(date)
        case "date_from", "date_to", "date_admission":
            let time = kind == "date_to" ? facts.eventEnd ?? facts.eventStart : kind == "date_admission" ? facts.admission ?? facts.eventStart : facts.eventStart
            guard let time else { throw RuleProblem("buildTime \(kind): the event's dates are not known to this station") }
            return time
        default:
            throw RuleProblem("buildTime \(kind) is not known to this station")
        }
    }
}
