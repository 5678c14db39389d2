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

/// The dashboard's guest lookup, guest page and the changes an organizer makes there, each
/// audited in the change's own transaction.
public protocol GuestRepository: Sendable {
    /// Guests of the event (not deleted) matching `query`, by name then id, at most `limit`.
    func findGuests(event: String, matching query: GuestQuery, limit: Int) async throws -> [GuestRecord]
    /// The guest, not deleted, or `nil`.
    func guestRecord(event: String, id: String) async throws -> GuestRecord?
    /// The guest's movements and refused attempts, newest first, at most `limit`.
    func guestHistory(event: String, guestID: String, limit: Int) async throws -> [GuestMovement]
    /// The organizer actions taken on the guest (manual check-ins, revocations, restorations),
    /// newest first, at most `limit`.
    func guestActions(event: String, guestID: String, limit: Int) async throws -> [OrganizerAction]
    /// Revokes or restores the ticket as ``EventRepository/setRevoked(event:guestID:revoked:)``
    /// does (stations learn it with the next roster change) and writes `action` in the same
    /// transaction; false (and nothing written) for an unknown guest.
    func setRevoked(event: String, guestID: String, revoked: Bool, action: OrganizerAction) async throws -> Bool
    /// Decides and records one check-in exactly as an upload (``SyncRepository/ingest(event:items:uploader:now:)``),
    /// and writes the action `audit` makes of the answer in the same transaction.
    func manualCheckIn(event: EventSummary, _ item: CheckInUpload, uploader: Uploader, now: Timestamp,
                       audit: @escaping @Sendable (CheckInResult) -> OrganizerAction) async throws -> CheckInResult
}

/// The lookup's queries, once for both dialects with `$n` parameters (``StatsSQL/sqlite(_:)``).
enum GuestLookupSQL {
    /// Accepted entries not undone, and the latest movement's direction, of guest `g`.
    static let presence = """
        (SELECT count(*) FROM check_ins c WHERE c.event_id = g.event_id AND c.guest_id = g.id AND c.status = 'accepted'
            AND c.undone_at IS NULL AND c.direction = 'entry') AS entries,
        (SELECT c.direction FROM check_ins c WHERE c.event_id = g.event_id AND c.guest_id = g.id AND c.status = 'accepted'
            AND c.undone_at IS NULL ORDER BY c.scanned_at DESC, CASE c.direction WHEN 'exit' THEN 0 ELSE 1 END, c.id DESC LIMIT 1) AS last_direction
        """

    static let columns = """
        g.event_id, g.id, g.code, g.name, g.email, g.company, g.access_type_id, g.revoked, g.walk_in,
        g.ticket_valid_from, g.ticket_valid_until, g.attention, g.order_code, g.checked_in_before
        """

    /// $1 event, $2 ticket code, $3 the text lowercased (order code, e-mail), $4 name pattern, $5 limit.
    ///
    /// Codes, order codes and e-mails are looked up by index (0010_guest_lookup.sql); a part of a
    /// name can only be scanned for, with the dialect's case-insensitive `like` (SQLite's `LIKE`,
    /// PostgreSQL's `ILIKE`: no `lower()` per row, which tripled the scan on SQLite), and only its
    /// first `$5` matches by name go on. Only the matches shown get their movements looked up.
    static func search(like: String) -> String {
        let guest = "FROM guests g WHERE g.event_id = $1 AND NOT g.deleted"
        return """
            SELECT \(columns), \(presence)
            FROM (SELECT * FROM (
                    SELECT \(columns) \(guest) AND g.code = $2
                    UNION SELECT \(columns) \(guest) AND g.order_code <> '' AND lower(g.order_code) = $3
                    UNION SELECT \(columns) \(guest) AND lower(g.email) = $3
                    UNION SELECT * FROM (SELECT \(columns) \(guest) AND g.name \(like) $4 ESCAPE '\\' ORDER BY g.name, g.id LIMIT $5) n
                  ) u ORDER BY u.name, u.id LIMIT $5) g
            ORDER BY g.name, g.id
            """
    }

    /// $1 event, $2 guest id.
    static let one = """
        SELECT \(columns), \(presence) FROM guests g WHERE g.event_id = $1 AND g.id = $2 AND NOT g.deleted
        """

    /// $1 event, $2 guest id, $3 limit: the actions a guest page lists, newest first.
    static let actions = """
        SELECT * FROM organizer_actions WHERE event_id = $1 AND subject = $2
            AND kind IN ('\(OrganizerAction.Kind.manualCheckIn.rawValue)', '\(OrganizerAction.Kind.guestRevoked.rawValue)', '\(OrganizerAction.Kind.guestRestored.rawValue)')
        ORDER BY id DESC LIMIT $3
        """

    /// $1 event, $2 guest id, $3 limit: recorded answers and attempts without a final one.
    static let history = """
        SELECT device_id, station, operator_name, source, direction, status, decision, reason, scanned_at, received_at, undone, id FROM (
            SELECT c.device_id, c.station, c.operator_name, c.source, c.direction, c.status, c.decision, c.reason, c.scanned_at,
                c.received_at, CASE WHEN c.undone_at IS NULL THEN 0 ELSE 1 END AS undone, c.id
            FROM check_ins c WHERE c.event_id = $1 AND c.guest_id = $2
            UNION ALL
            SELECT a.device_id, a.station, a.operator_name, a.source, a.direction, 'rejected', a.decision, a.reason, a.scanned_at,
                a.received_at, 0, a.id
            FROM check_in_attempts a WHERE a.event_id = $1 AND a.guest_id = $2
        ) h
        ORDER BY scanned_at DESC, received_at DESC, id DESC
        LIMIT $3
        """
}
