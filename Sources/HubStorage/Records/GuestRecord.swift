import CheckInCore
import Foundation
import HubAPI

/// What an organizer typed into the guest lookup, made safe to search with: trimmed, bounded,
/// and turned into the forms each column is compared in (``GuestLookupSQL/search(like:)``).
///
/// A name matches by any part of it ("ada" finds "Ada Lovelace"); a ticket code, an order code
/// and an e-mail match whole (codes as stations normalize them, e-mails in any case).
public struct GuestQuery: Sendable, Hashable {
    /// Longer input is cut: nobody types 200 characters to find a guest.
    public static let maximumLength = 200

    /// The text as typed, trimmed and bounded; empty means "no search".
    public var text: String

    public init(_ typed: String) {
        // Control characters (escape codes pasted with a code) are never part of a search.
        let printable = String(String.UnicodeScalarView(typed.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
        text = String(printable.trimmingCharacters(in: .whitespacesAndNewlines).prefix(Self.maximumLength))
    }

    public var isEmpty: Bool { text.isEmpty }

    /// The ticket code as a station would have stored it, or the text itself when it is no code.
    var ticketCode: String { TicketCode(normalizing: text)?.value ?? text }
    var lowercased: String { text.lowercased() }
    /// `%part%` for `LIKE … ESCAPE '\'`: the typed `%`, `_` and `\` match themselves.
    var namePattern: String {
        var escaped = ""
        for character in text.lowercased() {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return "%" + escaped + "%"
    }
}

/// Where a guest stands now, from their accepted movements not undone.
public enum GuestStatus: String, Sendable, Hashable, CaseIterable {
    case revoked
    case inside
    /// Admitted before, outside now.
    case checkedIn = "checked_in"
    case notArrived = "not_arrived"

    /// A revoked ticket says so whatever happened before; otherwise the last movement decides.
    public static func of(revoked: Bool, entries: Int, lastDirection: Direction?) -> GuestStatus {
        if revoked { return .revoked }
        if lastDirection == .entry { return .inside }
        return entries > 0 ? .checkedIn : .notArrived
    }

    /// As the dashboard shows it.
    public var words: String {
        switch self {
        case .revoked: "revoked"
        case .inside: "inside"
        case .checkedIn: "checked in, left"
        case .notArrived: "not arrived"
        }
    }
}

/// A guest as the lookup and the guest page show them: the roster row and where they stand.
public struct GuestRecord: Sendable, Hashable {
    public var guest: Guest
    /// Accepted entries not undone.
    public var entries: Int
    /// The direction of the latest accepted movement not undone (entry then exit in one
    /// millisecond counts as exit, as ``CheckInCore/CheckInRules`` orders them).
    public var lastDirection: Direction?

    public init(guest: Guest, entries: Int, lastDirection: Direction?) {
        self.guest = guest
        self.entries = entries
        self.lastDirection = lastDirection
    }

    public var status: GuestStatus { GuestStatus.of(revoked: guest.revoked, entries: entries, lastDirection: lastDirection) }
}

/// One line of a guest's history: a movement or a refused attempt, as recorded.
public struct GuestMovement: Sendable, Hashable {
    public var deviceID: String
    public var station: String
    public var operatorName: String
    public var source: String
    public var direction: String
    /// `accepted`, `duplicate` or `rejected`.
    public var status: String
    /// ``CheckInCore/Decision/Kind`` raw value (`admitted`, `already_checked_in`, …).
    public var decision: String
    public var reason: String?
    public var scannedAt: Timestamp
    public var receivedAt: Timestamp
    public var undone: Bool

    public init(deviceID: String, station: String, operatorName: String, source: String, direction: String, status: String,
                decision: String, reason: String?, scannedAt: Timestamp, receivedAt: Timestamp, undone: Bool) {
        self.deviceID = deviceID
        self.station = station
        self.operatorName = operatorName
        self.source = source
        self.direction = direction
        self.status = status
        self.decision = decision
        self.reason = reason
        self.scannedAt = scannedAt
        self.receivedAt = receivedAt
        self.undone = undone
    }
}
