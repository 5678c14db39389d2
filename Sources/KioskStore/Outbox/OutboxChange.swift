import CheckInCore
import Foundation

/// One change waiting for the hub, exactly as it will be uploaded: the typed contract between
/// the store, which records it in the same transaction as the change itself, and the sync
/// engine, which sends it. Stored as its ``kind`` and the JSON of the item (the hub API's wire
/// form of ``CheckIn``, ``WalkIn`` and ``Undo``).
public enum OutboxChange: Sendable, Hashable {
    case checkIn(CheckIn)
    case walkIn(WalkIn)
    case undo(Undo)
    /// A refusal, for a destination that lists failed check-ins (pretix); never queued for a hub.
    case refusal(RefusedScan)
    /// A printed badge, for a destination that keeps print logs (pretix); never queued for a hub.
    case badgePrinted(PrintedBadge)

    /// The `kind` column; uploads group consecutive changes of one kind into one batch.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case checkIn = "checkin"
        case walkIn = "walkin"
        case undo
        case refusal
        case badgePrinted = "badge_printed"
    }

    public var kind: Kind {
        switch self {
        case .checkIn: .checkIn
        case .walkIn: .walkIn
        case .undo: .undo
        case .refusal: .refusal
        case .badgePrinted: .badgePrinted
        }
    }

    /// What makes the change unique in the outbox: the check-in's key, the walk-in's guest id,
    /// the undone check-in's key.
    public var ref: String {
        switch self {
        case .checkIn(let checkIn): checkIn.key.description
        case .walkIn(let walkIn): walkIn.guestID
        case .undo(let undo): undo.key.description
        case .refusal(let refusal): refusal.ref
        case .badgePrinted(let badge): badge.ref
        }
    }

    /// The guest the change is about; `nil` for a refused code the station does not know.
    public var guestID: String? {
        switch self {
        case .checkIn(let checkIn): checkIn.guestID
        case .walkIn(let walkIn): walkIn.guestID
        case .undo(let undo): undo.key.guestID
        case .refusal(let refusal): refusal.guestID
        case .badgePrinted(let badge): badge.guestID
        }
    }

    /// Replay order: the scan time; a walk-in sorts just before its own check-in so the hub
    /// learns the guest first; an undo at the time it was made.
    public var sortAt: Timestamp {
        switch self {
        case .checkIn(let checkIn): checkIn.scannedAt
        case .walkIn(let walkIn): walkIn.createdAt.adding(milliseconds: -1)
        case .undo(let undo): undo.undoneAt
        case .refusal(let refusal): refusal.scannedAt
        case .badgePrinted(let badge): badge.printedAt
        }
    }

    /// The same change about another guest id (a local guest re-keyed to the hub's id).
    func rekeyed(from old: String, to new: String) -> OutboxChange {
        switch self {
        case .checkIn(var checkIn):
            if checkIn.key.guestID == old { checkIn.key.guestID = new }
            return .checkIn(checkIn)
        case .walkIn(var walkIn):
            if walkIn.guestID == old { walkIn.guestID = new }
            return .walkIn(walkIn)
        case .undo(var undo):
            if undo.key.guestID == old { undo.key.guestID = new }
            return .undo(undo)
        case .refusal(var refusal):
            if refusal.guestID == old { refusal.guestID = new }
            return .refusal(refusal)
        case .badgePrinted(var badge):
            if badge.guestID == old { badge.guestID = new }
            return .badgePrinted(badge)
        }
    }

    // MARK: Stored form

    /// The JSON of the item, as stored in the `payload` column.
    func payload() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = switch self {
        case .checkIn(let checkIn): try encoder.encode(checkIn)
        case .walkIn(let walkIn): try encoder.encode(walkIn)
        case .undo(let undo): try encoder.encode(undo)
        case .refusal(let refusal): try encoder.encode(refusal)
        case .badgePrinted(let badge): try encoder.encode(badge)
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Reads a stored change; throws ``Unreadable`` for a kind or payload this build cannot read.
    init(kind: String, payload: String) throws(Unreadable) {
        let data = Data(payload.utf8)
        let decoder = JSONDecoder()
        do {
            switch Kind(rawValue: kind) {
            case .checkIn: self = .checkIn(try decoder.decode(CheckIn.self, from: data))
            case .walkIn: self = .walkIn(try decoder.decode(WalkIn.self, from: data))
            case .undo: self = .undo(try decoder.decode(Undo.self, from: data))
            case .refusal: self = .refusal(try decoder.decode(RefusedScan.self, from: data))
            case .badgePrinted: self = .badgePrinted(try decoder.decode(PrintedBadge.self, from: data))
            case nil: throw Unreadable(reason: "unknown kind of change \(Sanitized.text(kind))")
            }
        } catch let error as Unreadable {
            throw error
        } catch {
            throw Unreadable(reason: "unreadable \(Sanitized.text(kind)) entry")
        }
    }

    /// A stored change this build cannot read: refused locally, never sent, never retried.
    public struct Unreadable: Error, Sendable, Hashable {
        public var reason: String
    }
}

extension OutboxChange: Codable {
    private enum CodingKeys: String, CodingKey { case kind, item }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Kind.self, forKey: .kind) {
        case .checkIn: self = .checkIn(try container.decode(CheckIn.self, forKey: .item))
        case .walkIn: self = .walkIn(try container.decode(WalkIn.self, forKey: .item))
        case .undo: self = .undo(try container.decode(Undo.self, forKey: .item))
        case .refusal: self = .refusal(try container.decode(RefusedScan.self, forKey: .item))
        case .badgePrinted: self = .badgePrinted(try container.decode(PrintedBadge.self, forKey: .item))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        switch self {
        case .checkIn(let checkIn): try container.encode(checkIn, forKey: .item)
        case .walkIn(let walkIn): try container.encode(walkIn, forKey: .item)
        case .undo(let undo): try container.encode(undo, forKey: .item)
        case .refusal(let refusal): try container.encode(refusal, forKey: .item)
        case .badgePrinted(let badge): try container.encode(badge, forKey: .item)
        }
    }
}
