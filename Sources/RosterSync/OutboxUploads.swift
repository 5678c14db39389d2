import CheckInCore
import HubAPI
import KioskStore

/// The hub's answers to uploaded changes, as ``OutboxOutcome``s.
enum OutboxUploads {
    static func outcome(_ result: HubAPI.CheckInResult) -> OutboxOutcome {
        switch result.status {
        case .accepted: return .accepted
        case .duplicate:
            let prior = result.previous ?? PriorCheckIn(by: "", station: "", deviceID: "", at: result.key.scannedAt)
            return .duplicate(of: prior)
        case .rejected:
            let reason = result.reason ?? result.decision.rawValue
            // Not final while either roster may be behind (a local import joining the hub, a
            // walk-in registered at another door moments ago): asked again after the next pulls.
            if result.decision == .unknownCode { return .unknownCode(reason: reason) }
            return .rejected(reason: reason, previous: result.previous)
        }
    }

    static func outcome(_ result: WalkInResult) -> OutboxOutcome {
        switch result.status {
        case .accepted, .duplicate: return .accepted
        case .rejected: return .rejected(reason: result.reason ?? "walk-in refused by the hub", previous: nil)
        }
    }

    static func outcome(_ result: UndoResult) -> OutboxOutcome {
        switch result.status {
        case .undone: return .accepted
        case .notFound: return .rejected(reason: result.reason ?? "the hub has no such check-in to undo", previous: nil)
        case .forbidden: return .rejected(reason: result.reason ?? "undo not allowed for this station", previous: nil)
        }
    }
}
