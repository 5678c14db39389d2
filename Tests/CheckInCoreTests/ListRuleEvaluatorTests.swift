import CheckInCore
import Foundation
import Testing

/// pretix's check-in rules evaluated offline (``ListRuleEvaluator``): the shapes pretix's rule
/// editor writes, decided as pretix decides them, with its words for a refusal.
struct ListRuleEvaluatorTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    /// Sunday 2026-11-29, 18:30 in Berlin.
    static let now = Timestamp(iso8601: "2026-11-29T17:30:00Z")!

    static func at(_ text: String) -> Timestamp { Timestamp(iso8601: text)! }

    static func facts(product: String = "4", gate: String? = "3", now: Timestamp = now, entries: [String] = [], exits: [String] = [])
        -> ListRuleFacts {
        ListRuleFacts(product: product, gate: gate, now: now, timeZone: berlin, eventStart: at("2026-11-29T08:00:00Z"),
                      eventEnd: at("2026-11-30T20:00:00Z"), admission: nil,
                      movements: entries.map { (direction: Direction.entry, at: at($0)) } + exits.map { (direction: Direction.exit, at: at($0)) })
    }

    func decide(_ rules: String, _ facts: ListRuleFacts = facts()) -> ListRulesVerdict {
        ListRuleEvaluator.decide(rules: rules, facts: facts)
    }

    @Test func noRulesLetEveryEntryPass() {
        #expect(decide("{}") == .passes)
    }

    @Test func atMostTwoEntriesCountsEveryDoorsEntries() {
        let rule = #"{"<": [{"var": "entries_number"}, 2]}"#
        #expect(decide(rule, Self.facts(entries: ["2026-11-29T09:00:00Z"])) == .passes)
        #expect(decide(rule, Self.facts(entries: ["2026-11-29T09:00:00Z", "2026-11-29T12:00:00Z"], exits: ["2026-11-29T10:00:00Z"]))
                == .refused(explanation: "Maximum number of entries exceeded"))
    }

    @Test func oncePerDayCountsTheEventsCalendarDay() {
        let rule = #"{"<": [{"var": "entries_today"}, 1]}"#
        // 23:30 UTC on the 28th is 00:30 on the 29th in Berlin: today there.
        #expect(decide(rule, Self.facts(entries: ["2026-11-28T22:30:00Z"])) == .passes)
        #expect(decide(rule, Self.facts(entries: ["2026-11-28T23:30:00Z"])) == .refused(explanation: "Maximum number of entries today exceeded"))
        #expect(decide(#"{"<=": [{"var": "entries_days"}, 1]}"#, Self.facts(entries: ["2026-11-28T10:00:00Z", "2026-11-29T10:00:00Z"]))
                == .refused(explanation: "Maximum number of days with an entry exceeded"))
    }

    @Test func productsAndGatesAreListedByPretixsLookups() {
        let products = #"{"inList": [{"var": "product"}, {"objectList": [{"lookup": ["product", "4", "Day pass"]}, {"lookup": ["product", "6", "Bundle"]}]}]}"#
        #expect(decide(products) == .passes)
        #expect(decide(products, Self.facts(product: "5")) == .refused(explanation: "Ticket type not allowed"))
        let gate = #"{"inList": [{"var": "gate"}, {"objectList": [{"lookup": ["gate", "7", "Side door"]}]}]}"#
        #expect(decide(gate) == .refused(explanation: "Wrong entrance gate"))
        #expect(decide(gate, Self.facts(gate: nil)) == .refused(explanation: "Wrong entrance gate"))
    }

    @Test func timesAreTheEventsWithPretixsTolerance() {
        #expect(decide(#"{"isAfter": [{"var": "now"}, {"buildTime": ["custom", "2026-11-29T18:00:00.000+01:00"]}, null]}"#) == .passes)
        #expect(decide(#"{"isAfter": [{"var": "now"}, {"buildTime": ["customtime", "19:00"]}, null]}"#)
                == .refused(explanation: "Only allowed after 19:00"))
        #expect(decide(#"{"isAfter": [{"var": "now"}, {"buildTime": ["customtime", "19:00"]}, 45]}"#) == .passes, "45 minutes early is within the tolerance")
        #expect(decide(#"{"isBefore": [{"var": "now"}, {"buildTime": ["customtime", "18:00"]}, 15]}"#)
                == .refused(explanation: "Only allowed before 18:15"))
        #expect(decide(#"{"isBefore": [{"var": "now"}, {"buildTime": ["date_to"]}]}"#) == .passes)
        #expect(decide(#"{"isAfter": [{"var": "now"}, {"buildTime": ["date_admission"]}, 0]}"#) == .passes, "no admission time: the start")
    }

    @Test func countsSinceATimeAndMinutesSinceTheLastEntry() {
        let since = #"{"<": [{"entries_since": [{"buildTime": ["customtime", "12:00"]}]}, 1]}"#
        #expect(decide(since, Self.facts(entries: ["2026-11-29T10:00:00Z"])) == .passes, "11:00 in Berlin: before noon")
        #expect(decide(since, Self.facts(entries: ["2026-11-29T12:00:00Z"])) == .refused(explanation: "Maximum number of entries since 12:00 exceeded"))
        let cooldown = #"{"or": [{">": [{"var": "minutes_since_last_entry"}, 30]}, {"<": [{"var": "minutes_since_last_entry"}, 0]}]}"#
        #expect(decide(cooldown) == .passes, "no entry yet: -1")
        #expect(decide(cooldown, Self.facts(entries: ["2026-11-29T17:10:00Z"])) == .refused(explanation: "Minimum time since last entry exceeded"))
        #expect(decide(cooldown, Self.facts(entries: ["2026-11-29T16:50:00Z"])) == .passes)
    }

    @Test func weekdayAndEntryStatus() {
        #expect(decide(#"{"==": [{"var": "now_isoweekday"}, 7]}"#) == .passes)
        #expect(decide(#"{"==": [{"var": "now_isoweekday"}, 6]}"#) == .refused(explanation: "week day is not Saturday"))
        let absent = #"{"==": [{"var": "entry_status"}, "absent"]}"#
        #expect(decide(absent, Self.facts(entries: ["2026-11-29T09:00:00Z"], exits: ["2026-11-29T10:00:00Z"])) == .passes)
        #expect(decide(absent, Self.facts(entries: ["2026-11-29T09:00:00Z"])) == .refused(explanation: "Attendee is already checked in"))
    }

    @Test func ofSeveralWaysToPassTheShortestFailingOneIsExplained() {
        let rule = #"""
            {"or": [{"and": [{"inList": [{"var": "product"}, {"objectList": [{"lookup": ["product", "5", "Workshop"]}]}]},
                             {"<": [{"var": "entries_number"}, 5]}]},
                    {"<": [{"var": "entries_number"}, 1]}]}
            """#
        #expect(decide(rule, Self.facts(entries: ["2026-11-29T09:00:00Z"])) == .refused(explanation: "Ticket type not allowed"))
        #expect(decide(rule) == .passes)
    }

    @Test func rulesItDoesNotKnowAreRefusedNeverAdmitted() {
        #expect(decide("not json") == .notUnderstood("the list's rules are not JSON"))
        #expect(decide(#"{"some_new_operator": [1, 2]}"#) == .notUnderstood("the operator some_new_operator is not known to this station"))
        #expect(decide(#"{"<": [{"var": "orders_placed"}, 2]}"#) == .notUnderstood("the variable orders_placed is not known to this station"))
        #expect(decide(#"{"isAfter": [{"var": "now"}, 5]}"#) == .notUnderstood("isAfter needs times (buildTime or now)"))
        #expect(!ListRuleEvaluator.understands(#"{"or": [true, {"weather": ["rain"]}]}"#), "even on a branch not taken")
        #expect(ListRuleEvaluator.understands(#"{"<": [{"var": "entries_number"}, 2]}"#))
    }
}
