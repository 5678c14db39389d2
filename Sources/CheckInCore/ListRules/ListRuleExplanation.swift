import Foundation

/// Why a list's rules refuse an entry, in the words pretix gives its own devices: the conditions
/// that fail on the shortest way to passing ("Maximum number of entries exceeded", "Only allowed
/// after 18:00").
extension Evaluation {
    static let fallback = "The list's rules do not allow this entry"

    func explain(_ rule: RuleValue) -> String {
        let texts = failing(rule)
        return texts.isEmpty ? Self.fallback : texts.joined(separator: ", ")
    }

    private func holds(_ rule: RuleValue) -> Bool { (try? evaluate(rule).isTruthy) ?? false }

    /// The failing conditions that keep `rule` false; of several alternatives (`or`), the one
    /// with the fewest.
    private func failing(_ rule: RuleValue) -> [String] {
        guard case .object(let members) = rule, members.count == 1, let (name, arguments) = members.first else { return [] }
        switch name {
        case "and":
            return arguments.asArguments.filter { !holds($0) }.flatMap(failing)
        case "or":
            return arguments.asArguments.map(failing).filter { !$0.isEmpty }.min { $0.count < $1.count } ?? []
        default:
            return holds(rule) ? [] : [describe(name, arguments.asArguments)]
        }
    }

    private func describe(_ name: String, _ arguments: [RuleValue]) -> String {
        let left = arguments.first ?? .null
        let right = Array(arguments.dropFirst())
        guard case .object(let members) = left, members.count == 1, let (leftName, leftArguments) = members.first else { return Self.fallback }
        if leftName != "var" {
            // A count since or before a time: `{"<": [{"entries_since": [{"buildTime": …}]}, 2]}`.
            let labels = ["entries_since": "number of entries since", "entries_before": "number of entries before",
                          "entries_days_since": "number of days with an entry since", "entries_days_before": "number of days with an entry before"]
            guard let label = labels[leftName], let cutoff = try? evaluate(leftArguments.asArguments.first ?? .null), case .time(let time) = cutoff
            else { return Self.fallback }
            return compared(label + " " + words(time), name, right.first)
        }
        let variable = leftArguments.asArguments.first?.text ?? ""
        switch variable {
        case "now":
            guard let bound = right.first.flatMap({ try? evaluate($0) }), case .time(let time) = bound else { return Self.fallback }
            let tolerance = Int64((((right.count > 1 ? (try? evaluate(right[1])) : nil)?.number ?? 0) * 60_000).rounded())
            if name == "isBefore" { return "Only allowed before \(words(time.adding(milliseconds: tolerance)))" }
            if name == "isAfter" { return "Only allowed after \(words(time.adding(milliseconds: -tolerance)))" }
            return Self.fallback
        case "product", "variation": return "Ticket type not allowed"
        case "gate": return "Wrong entrance gate"
        case "entry_status":
            switch right.first?.text {
            case "present": return "Attendee is checked out"
            case "absent": return "Attendee is already checked in"
            default: return Self.fallback
            }
        case "now_isoweekday":
            let days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
            let value = right.first.flatMap(\.number).map(Int.init).flatMap { (1...7).contains($0) ? days[$0 - 1] : nil }
            return compared("week day", name, value.map(RuleValue.string) ?? right.first)
        default:
            let labels = ["minutes_since_last_entry": "time since last entry", "minutes_since_first_entry": "time since first entry",
                          "entries_days": "number of days with an entry", "entries_number": "number of entries", "entries_today": "number of entries today"]
            guard let label = labels[variable] else { return Self.fallback }
            return compared(label, name, right.first)
        }
    }

    private func compared(_ label: String, _ operation: String, _ value: RuleValue?) -> String {
        let shown = value?.text ?? ""
        switch operation {
        case "==", "===": return "\(label) is not \(shown)"
        case "!=", "!==": return "\(label) is \(shown)"
        case "<", "<=": return "Maximum \(label) exceeded"
        case ">", ">=": return "Minimum \(label) exceeded"
        default: return Self.fallback
        }
    }

    /// A time as staff read it, in the event's time zone: the time of day within 12 hours of
    /// now, else the date too.
    private func words(_ time: Timestamp) -> String {
        let calendar = facts.calendar
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: time.date)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        let clock = "\(two(parts.hour)):\(two(parts.minute))"
        guard time.distance(to: facts.now) >= 12 * 3_600_000 else { return clock }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(clock)"
    }
}
