import CheckInCore
import KioskStore

/// Changes waiting for one event, and what they wait for, in the operator's words
/// ("3 waiting for Spring Gala, not signed in"): `kiosk status` and the console show these.
public struct PendingByEvent: Sendable, Equatable {
    public var group: PendingGroup
    public var waitingFor: WaitingFor

    /// Why changes of an event are not uploaded yet.
    public enum WaitingFor: String, Sendable, Equatable {
        /// They go with the next sync (the station is signed in to their hub).
        case nextSync = "next_sync"
        /// Their hub has no session on this station: a sign-in there uploads them.
        case signIn = "sign_in"
        /// Recorded without a hub: the first event chosen takes them.
        case eventChoice = "event_choice"
    }

    /// Groups the pending changes of `database` for a station whose session is `session`.
    public static func report(_ database: KioskDatabase, session: StationSession?) throws(StoreError) -> [PendingByEvent] {
        let signedInHub = session.flatMap { $0.signedOut ? nil : $0.hubURL }
        return try database.outbox.pendingGroups().map { group in
            let waiting: WaitingFor = switch group.destination {
            case nil: .eventChoice
            case let destination? where destination.hubURL == signedInHub: .nextSync
            default: .signIn
            }
            return PendingByEvent(group: group, waitingFor: waiting)
        }
    }

    /// "3 waiting for Spring Gala, not signed in".
    public var summary: String {
        let event = Sanitized.text(group.eventName ?? group.destination?.eventID ?? "the first event chosen")
        var text = "\(group.pending) waiting for \(event)"
        switch waitingFor {
        case .nextSync: break
        case .signIn: text += ", not signed in" + (group.destination.map { " to \(Sanitized.text($0.hubURL))" } ?? "")
        case .eventChoice: text = "\(group.pending) recorded without a hub, for the first event chosen"
        }
        if group.held > 0 { text += " (\(group.held) held until the next roster update)" }
        if group.clockSuspect > 0 { text += " (\(group.clockSuspect) recorded with a wrong clock)" }
        return text
    }

    public var json: JSONValue {
        ["hub": .optional(group.destination?.hubURL), "event_id": .optional(group.destination?.eventID),
         "event": .optional(group.eventName.map(Sanitized.text)), "pending": .int(group.pending), "held": .int(group.held),
         "clock_suspect": .int(group.clockSuspect), "waiting_for": .string(waitingFor.rawValue), "summary": .string(summary)]
    }
}
