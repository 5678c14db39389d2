import CheckInCore
import PretixClient

/// What only pretix decides at this station's list for now, kept with the link so a station
/// started offline knows it too: entries on a list with rules the station cannot evaluate
/// (``CheckInCore/ListRuleEvaluator`` reads the rest). Questions at the door are the door's to
/// ask (``PretixLink/doorQuestions``).
public struct PretixOnlineNeeds: Sendable, Hashable, Codable {
    /// The list has check-in rules (JsonLogic) the station does not evaluate itself.
    public var listRules: Bool
    /// The list takes unpaid orders when staff say so ("admit anyway?").
    public var includePending: Bool

    public init(listRules: Bool = false, includePending: Bool = false) {
        self.listRules = listRules
        self.includePending = includePending
    }

    /// From the list.
    public init(list: PretixCheckInList) {
        self.init(listRules: !list.rules.isEmpty && !ListRuleEvaluator.understands(list.rules.json), includePending: list.includePending)
    }

    /// What pretix alone decides for a scan: rules concern entries only.
    public func check(direction: Direction) -> OnlineOnlyCheck? {
        direction == .entry && listRules ? .rules : nil
    }
}
