import CheckInCore
import PretixClient

/// What only pretix decides at this station's list for now, kept with the link so a station
/// started offline knows it too: entries on a list with rules the station cannot evaluate
/// (``CheckInCore/ListRuleEvaluator`` reads the rest), and entries of products with
/// questions to ask at the door (the station has no question form yet; pretix is asked with
/// `questions_supported: false`, as its own devices without one do).
public struct PretixOnlineNeeds: Sendable, Hashable, Codable {
    /// The list has check-in rules (JsonLogic) the station does not evaluate itself.
    public var listRules: Bool
    /// Products with a question asked at check-in, with the questions' ids.
    public var questions: [Int: [String]]
    /// The list takes unpaid orders when staff say so ("admit anyway?").
    public var includePending: Bool

    public init(listRules: Bool = false, questions: [Int: [String]] = [:], includePending: Bool = false) {
        self.listRules = listRules
        self.questions = questions
        self.includePending = includePending
    }

    /// From the list and the event's questions.
    public init(list: PretixCheckInList, questions: [PretixQuestion]) {
        var asked: [Int: [String]] = [:]
        for question in questions where question.askDuringCheckin {
            for item in question.items { asked[item, default: []].append(String(question.id)) }
        }
        self.init(listRules: !list.rules.isEmpty && !ListRuleEvaluator.understands(list.rules.json), questions: asked,
                  includePending: list.includePending)
    }

    /// What pretix alone decides for a scan of a ticket of `item` (`nil`: the ticket is not
    /// known here): rules and questions concern entries only.
    public func check(item: Int?, direction: Direction) -> OnlineOnlyCheck? {
        guard direction == .entry else { return nil }
        if listRules { return .rules }
        if let item, let asked = questions[item], !asked.isEmpty { return .questions(asked) }
        return nil
    }
}
