import CheckInCore
import Foundation
import HubAPI
import KioskStore

/// Turns the station's outbox payloads (written by KioskStore in the same transaction as the
/// change) into the hub's upload items, and the hub's answers into ``OutboxOutcome``s.
enum OutboxUploads {
    /// A payload that cannot be read is refused locally with this reason instead of being retried for ever.
    struct Unreadable: Error { var reason: String }

    static func object(_ entry: OutboxEntry) throws(Unreadable) -> [String: Any] {
        guard let data = entry.payload.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Unreadable(reason: "unreadable outbox entry (not JSON)")
        }
        return object
    }

    static func string(_ object: [String: Any], _ key: String) throws(Unreadable) -> String {
        guard let value = object[key] as? String else { throw Unreadable(reason: "unreadable outbox entry (no \(key))") }
        return value
    }

    static func milliseconds(_ object: [String: Any], _ key: String) throws(Unreadable) -> Timestamp {
        if let value = object[key] as? Int { return Timestamp(milliseconds: Int64(value)) }
        if let value = object[key] as? NSNumber { return Timestamp(milliseconds: value.int64Value) }
        throw Unreadable(reason: "unreadable outbox entry (no \(key))")
    }

    static func checkIn(_ entry: OutboxEntry) throws(Unreadable) -> CheckInUpload {
        let object = try object(entry)
        guard let key = IdempotencyKey(try string(object, "idempotency_key")) else { throw Unreadable(reason: "unreadable idempotency key") }
        return CheckInUpload(
            key: key, station: try string(object, "station"), operatorName: try string(object, "operator"),
            source: CheckInSource(rawValue: (object["source"] as? String) ?? "") ?? .typed,
            direction: Direction(rawValue: (object["direction"] as? String) ?? "") ?? .entry)
    }

    static func walkIn(_ entry: OutboxEntry) throws(Unreadable) -> WalkInUpload {
        let object = try object(entry)
        return WalkInUpload(
            guestID: try string(object, "guest_id"), code: try string(object, "code"), name: try string(object, "name"),
            email: (object["email"] as? String) ?? "", company: (object["company"] as? String) ?? "",
            accessTypeID: try string(object, "access_type_id"), deviceID: try string(object, "device_id"),
            station: try string(object, "station"), operatorName: try string(object, "operator"),
            createdAt: try milliseconds(object, "created_at"))
    }

    static func undo(_ entry: OutboxEntry, station: String) throws(Unreadable) -> UndoUpload {
        let object = try object(entry)
        guard let key = IdempotencyKey(try string(object, "idempotency_key")) else { throw Unreadable(reason: "unreadable idempotency key") }
        return UndoUpload(key: key, undoneAt: try milliseconds(object, "undone_at"),
                          station: (object["station"] as? String) ?? station, operatorName: try string(object, "operator"))
    }

    static func outcome(_ result: HubAPI.CheckInResult) -> OutboxOutcome {
        switch result.status {
        case .accepted: return .accepted
        case .duplicate:
            let prior = result.previous ?? PriorCheckIn(by: "", station: "", deviceID: "", at: result.key.scannedAt)
            return .duplicate(of: prior)
        case .rejected:
            return .rejected(reason: result.reason ?? result.decision.rawValue, previous: result.previous)
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
