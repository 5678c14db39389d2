import CheckInCore
import KioskStore
import OperatorConsole

/// What happens at the station, for the console and, headless, as one JSON line each.
public enum StationEvent: Sendable, Equatable {
    /// Start-up finished: the station takes codes now.
    case ready(guests: Int, startupMilliseconds: Double, scanning: String, printer: String)
    case scan(code: String, source: CheckInSource)
    /// A device re-read the same code within the repeat window.
    case repeatIgnored(code: String)
    case result(Feedback, guestID: String?)
    case printer(PrinterState)
    case sync(SyncStatus, pending: Int, refused: Int, clockFault: String?)
    /// An operator action's outcome in words (undo, reprint, sync now, sign-out).
    case notice(String, action: String)
    /// Storage did not start: the station does not scan.
    case storageUnavailable(StorageState, pending: Int, guests: Int)
    case stopping

    /// One JSON object per event (a line of `kiosk run --headless`). Text from the roster is
    /// sanitized here, so nothing a guest's name holds can reach a terminal or the journal raw.
    public var json: JSONValue {
        switch self {
        case .ready(let guests, let milliseconds, let scanning, let printer):
            return ["event": "ready", "guests": .int(guests), "startup_ms": .double(milliseconds), "scanning": .string(scanning),
                    "printer": .string(Sanitized.text(printer))]
        case .scan(let code, let source):
            return ["event": "scan", "code": .string(Sanitized.text(code)), "source": .string(source.rawValue)]
        case .repeatIgnored(let code):
            return ["event": "repeat_ignored", "code": .string(Sanitized.text(code))]
        case .result(let feedback, let guestID):
            var object: [String: JSONValue] = ["event": .string(feedback.isWalkIn ? "walk_in" : "decision")]
            if let failure = feedback.failure {
                object["decision"] = .null
                object["error"] = .string(failure)
            } else if let outcome = feedback.outcome {
                object["decision"] = .string(outcome.decision.kind.rawValue)
                object["guest"] = outcome.badge.map {
                    ["id": .optional(guestID ?? $0.guestID), "name": .string(Sanitized.text($0.name)), "access_type": .string(Sanitized.text($0.accessType)),
                     "code": .string(Sanitized.text($0.code))]
                } ?? .null
                object["previous"] = outcome.decision.previous.map {
                    ["by": .string(Sanitized.text($0.by)), "station": .string(Sanitized.text($0.station)), "at": .string($0.at.iso8601)]
                } ?? .null
            }
            if case .code(let code) = feedback.presentation.input { object["code"] = .string(Sanitized.text(code)) }
            object["source"] = .string(feedback.presentation.source.rawValue)
            if let badge = feedback.badge {
                object["badge"] = ["state": .string(badge.state), "output": .string(badge.detail)]
            }
            return .object(object)
        case .printer(let state):
            return ["event": "print_state", "state": .string(state.words)]
        case .sync(let status, let pending, let refused, let clockFault):
            return ["event": "sync", "state": .string(status.online ? "online" : "offline"), "detail": .string(status.description), "pending": .int(pending),
                    "refused": .int(refused), "clock": .optional(clockFault)]
        case .notice(let message, let action):
            return ["event": .string(action), "message": .string(Sanitized.text(message))]
        case .storageUnavailable(let state, let pending, let guests):
            return ["event": "storage_unavailable", "storage": .object(state.json), "pending": .int(pending), "guests": .int(guests),
                    "message": .string(state.message)]
        case .stopping:
            return ["event": "stopping"]
        }
    }
}

extension Feedback {
    var isWalkIn: Bool {
        if case .walkIn = presentation.input { true } else { false }
    }

    /// The attendee panel for this feedback.
    public var panel: ResultPanel {
        if let failure {
            return ResultPanel(tone: .refused, title: "Not recorded — please see staff", detail: failure)
        }
        guard let outcome else { return ResultPanel(tone: .refused, title: "Not recorded — please see staff") }
        let badgeText: String? = badge.map {
            switch $0 {
            case .printed: "badge printed"
            case .queued: "badge sent to the printer"
            case .failed(let reason): "badge not printed: \(reason)"
            }
        }
        return ResultPanel(decision: outcome.decision, guestName: outcome.badge?.name, accessType: outcome.badge?.accessType, badge: badgeText)
    }
}
