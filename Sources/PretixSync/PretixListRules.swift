import CheckInCore
import Foundation
import PretixClient

/// A pretix check-in list's rules with what they are evaluated against offline: the event's
/// time zone and dates. Kept with the link, so a station started offline decides them too.
public struct PretixListRules: Codable, Sendable, Hashable {
    /// The rules, JsonLogic as pretix serves them.
    public var rules: String
    public var timeZone: String
    public var dateFrom: Timestamp?
    public var dateTo: Timestamp?
    public var dateAdmission: Timestamp?

    /// The list's rules in the event's terms; `nil` for a list without rules.
    public init?(list: PretixCheckInList, event: PretixEvent) {
        guard !list.rules.isEmpty else { return nil }
        rules = list.rules.json
        timeZone = event.timezone
        dateFrom = event.dateFrom.timestamp
        dateTo = event.dateTo?.timestamp
        dateAdmission = event.dateAdmission?.timestamp
    }

    /// The rules' verdict on an entry of a ticket of product `item` at this door (its gate),
    /// counting the ticket's movements on the list (every door's the station knows).
    public func verdict(item: Int?, gate: Int?, at now: Timestamp, movements: [CheckIn]) -> ListRulesVerdict {
        guard let zone = TimeZone(identifier: timeZone) else { return .notUnderstood("the event's time zone \(timeZone) is not known to this station") }
        let facts = ListRuleFacts(product: item.map(String.init) ?? "", gate: gate.map(String.init), now: now, timeZone: zone,
                                  eventStart: dateFrom, eventEnd: dateTo, admission: dateAdmission,
                                  movements: movements.map { (direction: $0.direction, at: $0.scannedAt) })
        return ListRuleEvaluator.decide(rules: rules, facts: facts)
    }
}
