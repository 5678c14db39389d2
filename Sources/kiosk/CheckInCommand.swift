import ArgumentParser
import CheckInCore
import PretixSync
import Foundation
import KioskStore

struct CheckInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkin",
        abstract: "Check in one ticket code and print the decision.",
        discussion: """
            Exit status: 0 admitted, 10 duplicate (admitted moments ago), 11 already checked in, \
            12 unknown code, 13 not valid here, 14 outside its time window, 15 revoked, \
            21 questions to answer first (again with --answer ID=ANSWER for each); \
            70 storage error, 74 disk full, 75 storage not started (failed migration).
            """)

    @Argument(help: "The ticket code as scanned or typed (URL-wrapped codes and scanner suffixes are accepted).")
    var code: String

    @Option(help: "Operator name recorded with the check-in.")
    var `operator`: String?

    @Option(help: "Station name recorded with the check-in (default: the station's configured name).")
    var station: String?

    @Option(help: "How the code was read: camera, scanner, typed.")
    var source: String = "typed"

    @Flag(help: "Record the guest leaving instead of entering.")
    var exit = false

    @Flag(help: "Check in every ticket of this ticket's order (a family, a group booking): each decided and recorded on its own, one line each.")
    var wholeOrder = false

    @Flag(help: "Admit an unpaid ticket the ticket shop leaves to the door (pretix: a list that includes pending orders), as staff answer \"admit anyway?\".")
    var admitUnpaid = false

    @Option(name: .customLong("answer"), help: ArgumentHelp(
        "An answer to one of the ticket's questions at the door, as ID=ANSWER (repeat for each; exit status 21 lists them with --json).",
        valueName: "ID=ANSWER"))
    var answerArguments: [String] = []

    @OptionGroup var options: StationOptions

    func validate() throws {
        guard CheckInSource(rawValue: source) != nil else { throw ValidationError("--source must be camera, scanner or typed") }
        guard answerArguments.allSatisfy({ $0.contains("=") }) else { throw ValidationError("--answer takes ID=ANSWER, such as --answer 12=yes") }
    }

    /// The typed answers, by question id.
    var answers: [String: String] {
        Dictionary(answerArguments.map { argument in
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }, uniquingKeysWith: { $1 })
    }

    func run() async throws {
        try await CommandOutput.run(json: options.json) {
            let database = try options.openDatabase()
            try database.requireUsableForCommand()
            if wholeOrder { return try await checkInOrder(database) }
            var request = CheckInRequest(rawCode: code, source: CheckInSource(rawValue: source) ?? .typed, operatorName: `operator`,
                                         station: station, direction: exit ? .exit : .entry, admitUnpaid: admitUnpaid, answers: answers)
            if let door = PretixDoor.linked(database) { request = await door.asked(request) }
            let result = try await database.desk.checkIn(request)
            if options.json {
                var json = result.json
                if case .object(var members) = json {
                    members["direction"] = .string(exit ? "exit" : "entry")
                    json = .object(members)
                }
                CommandOutput.printJSON(json)
            } else {
                let name = result.guest.map { Sanitized.text($0.guest.name) } ?? ""
                let line: String = switch (exit && result.decision == .admitted, result.flag) {
                case (true, .exitWithoutEntry): "Goodbye, \(name) — not checked in on this station's records: exit recorded and flagged"
                case (true, nil): "Goodbye, \(name) — see you later"
                case (false, _): result.sentence
                }
                print(line)
            }
            return result.decision.kind.exitCode
        }
    }
}

extension CheckInCommand {
    /// `--whole-order`: the presented ticket first, then the rest of its order. Exit status 0
    /// when everyone may pass, else the first refusal's.
    func checkInOrder(_ database: KioskDatabase) async throws -> Int32 {
        let members = try database.roster.orderMembers(code: code)
        let codes = members.isEmpty ? [code] : members.map(\.code.value)
        let at = Timestamp.now()
        var results: [CheckInResult] = []
        let door = PretixDoor.linked(database)
        for member in codes {
            var request = CheckInRequest(rawCode: member, source: CheckInSource(rawValue: source) ?? .typed, operatorName: `operator`,
                                         station: station, at: at, direction: exit ? .exit : .entry)
            if let door { request = await door.asked(request) }
            results.append(try await database.desk.checkIn(request))
        }
        let refused = results.filter { !$0.decision.letsGuestIn }.count
        if options.json {
            CommandOutput.printJSON([
                "order": .optional(members.first.flatMap { $0.facts.orderCode.isEmpty ? nil : Sanitized.text($0.facts.orderCode) }),
                "results": .array(results.map(\.json)),
                "admitted": .int(results.count - refused),
                "refused": .int(refused),
            ])
        } else {
            // Every ticket on its own line, a refused one marked: nobody of the family is missed.
            let order = members.first.map { Sanitized.text($0.facts.orderCode) } ?? ""
            let tickets = "\(results.count) ticket\(results.count == 1 ? "" : "s")"
            let outcome = refused == 0 ? "all may go in" : "\(results.count - refused) may go in, \(refused) refused"
            print(order.isEmpty ? "\(tickets): \(outcome)" : "Order \(order): \(tickets), \(outcome)")
            for (index, result) in results.enumerated() {
                let name = result.guest.map { Sanitized.text($0.guest.name) } ?? codes[index]
                print("\(result.decision.letsGuestIn ? "✓" : "✗") \(name): \(result.sentence)")
            }
        }
        return results.first { !$0.decision.letsGuestIn }?.decision.kind.exitCode ?? 0
    }
}

extension CheckInResult {
    var json: JSONValue {
        let previous: JSONValue = decision.previous.map {
            ["by": .string($0.by), "station": .string($0.station), "at": .string($0.at.iso8601), "device_id": .string($0.deviceID)]
        } ?? .null
        let guestJSON: JSONValue = guest.map {
            ["id": .string($0.guest.id), "name": .string($0.guest.name), "access_type": .string($0.accessTypeName),
             "company": .string($0.guest.company), "code": .string($0.guest.code.value)]
        } ?? .null
        let members: [String: JSONValue] = [
            "decision": .string(decision.kind.rawValue),
            "guest": guestJSON,
            "previous": previous,
            "idempotency_key": .optional(recorded?.key.description),
            "replayed": .bool(replayed),
            "flag": .optional(flag?.rawValue),
            "refusal": .optional(decision.kind == .unpaid ? TicketRefusal.unpaid.rawValue
                                 : guest.flatMap { $0.guest.revoked ? $0.guest.facts.refusal?.rawValue : nil }),
        ]
        return .object(members.merging(decision.ticketJSON(attention: guest?.guest.facts.attentionNote,
                                                           answers: guest?.guest.facts.shownAnswers ?? [])) { $1 })
    }

    /// The decision in words, as the operator reads it.
    var sentence: String {
        let name = guest.map { Sanitized.text($0.guest.name) } ?? ""
        // A ticket admitted by its own signature has no name on the station until its order arrives.
        let who = name.isEmpty ? "This ticket" : name
        switch decision {
        case .admitted:
            // No guest: a ticket pretix admitted online that this station's copy does not hold yet.
            guard let guest else { return "Welcome — admitted by the ticket shop (not in this station's copy yet)" }
            let welcome = (name.isEmpty ? "Welcome" : "Welcome, \(name)") + " (\(Sanitized.text(guest.accessTypeName)))"
                + guest.guest.facts.shownAnswers.map { " · " + Sanitized.text($0) }.joined()
            guard let note = guest.guest.facts.attentionNote else { return welcome }
            return welcome + " — STAFF NOTE: \(Sanitized.text(note))"
        case .duplicate(let previous) where previous.isBeforeImport, .alreadyCheckedIn(let previous) where previous.isBeforeImport:
            return "Already checked in — \(name.isEmpty ? "" : name + ", ")checked in before import at \(previous.at.localTime)"
        case .duplicate(let previous): return "\(who) was just checked in \(Sanitized.text(previous.byAndWhere)), \(previous.at.localTime)"
        case .alreadyCheckedIn(let previous): return "Already checked in — \(name.isEmpty ? "" : name + ", ")\(Sanitized.text(previous.byAndWhere)), \(previous.at.localTime)"
        case .unknownCode: return "Ticket not recognized — please see staff"
        case .notValidHere(let type): return "Not valid for this entrance (\(Sanitized.text(type)))"
        case .outsideWindow(let from, let until):
            return "Ticket not valid at this time" + (from.map { " (from \($0.localTime))" } ?? "") + (until.map { " (until \($0.localTime))" } ?? "")
        case .revoked: return TicketRefusal.title(guest.flatMap { $0.guest.revoked ? $0.guest.facts.refusal : nil })
        case .unpaid(admitAnyway: true):
            return "Not paid yet: \(name)'s order is unpaid — pretix leaves it to the door: admit anyway with --admit-unpaid"
        case .unpaid: return TicketRefusal.title(.unpaid)
        case .unapproved: return TicketRefusal.title(.unapproved)
        case .needsOnline(.rules):
            return "Only pretix decides entries at this list (its rules) and it did not answer: nothing recorded — try again, or see staff"
        case .needsOnline(.questions):
            return "Only pretix decides this ticket's entry (questions at the door) and it did not answer: nothing recorded — try again, or see staff"
        case .needsOnline(.ticket):
            return "Cannot check this ticket offline: this station holds no orders and pretix did not answer — try again, or see staff"
        case .listRules(let explanation):
            return "Not admitted by the list's rules" + (explanation.map { ": \(Sanitized.text($0))" } ?? "") + " — please see staff"
        case .questions(let asked):
            let questions = asked.questions.map { question in
                let problem = asked.problems[question.id].map { " — \($0)" } ?? ""
                return "\n  \(question.id): \(Sanitized.text(question.text))\(question.required ? " (required)" : "") [\(question.kind.name)]\(problem)"
            }.joined()
            return "Questions to answer before entry: nothing recorded — check in again with --answer ID=ANSWER for each:" + questions
        }
    }
}

extension Timestamp {
    /// Local wall-clock time, `HH:mm` today or `yyyy-MM-dd HH:mm` otherwise.
    var localTime: String {
        let formatter = DateFormatter()
        formatter.dateFormat = Calendar.current.isDateInToday(date) ? "HH:mm" : "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
