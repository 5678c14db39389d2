import CheckInCore
import KioskStore
import OperatorConsole
import PrintSpooler

/// What happens at the station, for the console and, headless, as one JSON line each.
public enum StationEvent: Sendable, Equatable {
    /// Start-up finished: the station takes codes now.
    case ready(guests: Int, startupMilliseconds: Double, scanning: String, printer: String)
    case scan(code: String, source: CheckInSource)
    /// A device re-read the same code within the repeat window.
    case repeatIgnored(code: String)
    /// A code was seen that cannot be used (its content is never shown).
    case unreadable
    /// The result of a presentation, at once after the commit.
    case result(Feedback)
    /// A badge's progress after the result (printing, printed, at the desk).
    case badge(BadgeProgress)
    /// Printer, camera, hub, storage or clock changed.
    case health(StationHealth)
    case sync(HubHealth, pending: Int, refused: Int)
    /// Badges wait for the operator's word: they waited too long, or some may already have
    /// printed (a printer took them before the station gave up on them; the question's note
    /// says so). `nil`: nothing waits for an answer any more.
    case staleBadges(StaleBadgesQuestion?)
    /// An operator action's outcome in words (undo, reprint, sync now, sign-out).
    case notice(String, action: String)
    /// Storage did not start: the station does not scan.
    case storageUnavailable(StorageState, pending: Int, guests: Int)
    /// A set-up step the station took by itself (a scanned pretix device QR code), for the
    /// console's set-up screens.
    case setup(SetupAnswer)
    case stopping

    /// One JSON object per event (a line of `kiosk run --headless`). Text from the roster is
    /// sanitized here, so nothing a guest's name holds can reach a terminal or the journal raw.
    public var json: JSONValue { json(names: true) }

    /// The same line; without `names`, a guest is its id, access type and code only (the journal
    /// of a station run by systemd keeps no names: ``HeadlessNames``).
    public func json(names: Bool) -> JSONValue {
        switch self {
        case .ready(let guests, let milliseconds, let scanning, let printer):
            return ["event": "ready", "guests": .int(guests), "startup_ms": .double(milliseconds), "scanning": .string(scanning),
                    "printer": .string(Sanitized.text(printer))]
        case .scan(let code, let source):
            return ["event": "scan", "code": .string(Sanitized.text(code)), "source": .string(source.rawValue)]
        case .repeatIgnored(let code):
            return ["event": "repeat_ignored", "code": .string(Sanitized.text(code))]
        case .unreadable:
            return ["event": "unreadable", "message": "Unreadable code: please use the desk or type the code."]
        case .result(let feedback):
            return feedback.json(names: names)
        case .badge(let progress):
            return ["event": "print_state", "job": .int(Int(progress.jobID)), "guest_id": .string(Sanitized.text(progress.guestID)),
                    "state": .string(progress.state), "stage": .string(progress.stage.rawValue), "reason": .optional(progress.reason.map(Sanitized.text))]
        case .health(let health):
            guard case .object(var members) = health.json else { return health.json }
            members["event"] = "health"
            return .object(members)
        case .sync(let hub, let pending, let refused):
            let part = StationHealth(hub: hub).hubPart
            return ["event": "sync", "state": .string(part.state), "detail": .string(Sanitized.text(part.words)), "pending": .int(pending),
                    "refused": .int(refused)]
        case .staleBadges(let question):
            let choices = question?.choices ?? []
            let words = choices.map(\.rawValue).joined(separator: ", ")
            let message = question.map { question in
                (question.possibleDuplicates > 0 ? "\(question.count) badges wait for your word" : "\(question.count) badges waited too long")
                    + ": answer \(words)" + (question.note.map { ". \($0)" } ?? "")
            }
            return ["event": "stale_badges", "count": .int(question?.count ?? 0), "possible_duplicates": .int(question?.possibleDuplicates ?? 0),
                    "choices": .array(choices.map { .string($0.rawValue) }), "message": .string(message ?? "No badge waits for an answer")]
        case .notice(let message, let action):
            return ["event": .string(action), "message": .string(Sanitized.text(message))]
        case .storageUnavailable(let state, let pending, let guests):
            return ["event": "storage_unavailable", "storage": .object(state.json), "pending": .int(pending), "guests": .int(guests),
                    "message": .string(state.message)]
        case .setup(let answer):
            return Self.setupJSON(answer)
        case .stopping:
            return ["event": "stopping"]
        }
    }
}

extension Feedback {
    /// The headless `decision` (or `walk_in`) line: the result, and the badge job written with
    /// it (id and first state; later states come as `print_state` lines with that id).
    func json(names: Bool) -> JSONValue {
        var object: [String: JSONValue] = ["event": .string(presentation.isWalkIn ? "walk_in" : "decision")]
        if let failure {
            object["decision"] = .null
            object["error"] = .string(failure)
        } else if let outcome {
            object["decision"] = .string(outcome.decision.kind.rawValue)
            object["guest"] = outcome.guest.map { guest -> JSONValue in
                var members: [String: JSONValue] = [
                    "id": .string(Sanitized.text(guest.id)), "access_type": .string(Sanitized.text(guest.accessType)),
                    "code": .string(Sanitized.text(guest.code)),
                ]
                if names { members["name"] = .string(Sanitized.text(guest.name)) }
                return .object(members)
            } ?? .null
            object["previous"] = outcome.decision.previous.map {
                ["by": .string(Sanitized.text($0.by)), "station": .string(Sanitized.text($0.station)), "at": .string($0.at.iso8601)]
            } ?? .null
            if let job = outcome.badgeJobID { object["badge"] = ["job": .int(Int(job)), "state": "queued"] }
            if outcome.badgeWithheld { object["badge"] = ["job": .null, "state": "withheld", "reason": "no name on this ticket yet"] }
            if let flag = outcome.flag { object["flag"] = .string(flag.rawValue) }
            if let refusal = outcome.guest?.refusal { object["refusal"] = .string(refusal.rawValue) }
            object.merge(outcome.decision.ticketJSON(attention: outcome.guest?.attention, answers: outcome.guest?.answers ?? [])) { $1 }
        }
        if case .code(let code) = presentation.input { object["code"] = .string(Sanitized.text(code)) }
        object["source"] = .string(presentation.source.rawValue)
        object["direction"] = .string(presentation.direction.rawValue)
        return .object(object)
    }

    /// An exit's panel: its own words, never "Welcome".
    static func farewell(_ outcome: RecordedOutcome) -> ResultPanel {
        let name = TerminalText.clean(outcome.guest?.name ?? "")
        switch outcome.decision {
        case .admitted where outcome.flag == .exitWithoutEntry:
            // They leave all the same; staff see that the records never had them inside.
            return ResultPanel(tone: .warning, title: "Goodbye, \(name)",
                               detail: "Not checked in on this station's records: exit recorded and flagged for the organizer")
        case .admitted:
            return ResultPanel(tone: .farewell, title: "Goodbye, \(name) — see you later")
        case .unknownCode:
            return ResultPanel(tone: .refused, title: "Ticket not recognized — please see staff")
        default:
            var panel = ResultPanel(decision: outcome.decision, guestName: outcome.guest?.name, accessType: outcome.guest?.accessType,
                                    refusal: outcome.guest?.refusal)
            panel.title = "Exit not recorded: " + panel.title
            return panel
        }
    }

    /// The attendee panel for this feedback.
    public var panel: ResultPanel {
        if let failure {
            return ResultPanel(tone: .refused, title: "Not recorded — please see staff", detail: failure)
        }
        guard let outcome else { return ResultPanel(tone: .refused, title: "Not recorded — please see staff") }
        if presentation.direction == .exit {
            return Self.farewell(outcome)
        }
        var panel = ResultPanel(decision: outcome.decision, guestName: outcome.guest?.name, accessType: outcome.guest?.accessType,
                                attention: outcome.guest?.attention, refusal: outcome.guest?.refusal, answers: outcome.guest?.answers ?? [],
                                now: presentation.at)
        if outcome.badgeJobID != nil { panel.badge = PrintJobState.queued.attendeeWords }
        if outcome.badgeWithheld { panel.badge = "Please collect your badge at the desk" }
        return panel
    }
}

extension StationEvent {
    /// A set-up step as a headless line.
    static func setupJSON(_ answer: SetupAnswer) -> JSONValue {
        switch answer {
        case .pretixConnecting(let server):
            return ["event": "pretix_connecting", "server": .string(Sanitized.text(server))]
        case .pretixRefused(let problem):
            return ["event": "pretix_refused", "message": .string(Sanitized.text(problem))]
        case .downloading(let event, let done, let total):
            return ["event": "roster_download", "roster": .string(Sanitized.text(event)), "done": .int(done), "total": total.map(JSONValue.int) ?? .null]
        case .downloadPaused(let event, let problem):
            return ["event": "roster_download_paused", "roster": .string(Sanitized.text(event)), "message": .string(Sanitized.text(problem))]
        case .rosterReady(let event, let guests):
            return ["event": "roster_ready", "roster": .string(Sanitized.text(event)), "guests": .int(guests)]
        case .signedIn, .signInRefused, .events, .eventsUnavailable, .eventRefused, .signedOut, .pretixLists:
            return ["event": "setup"]
        }
    }
}
