import CheckInCore
import GRDB

/// A guest with the name of their access type and their current check-in state, as the
/// console and the command line show it.
public struct GuestDetails: Sendable, Hashable {
    public var guest: Guest
    public var accessTypeName: String
    /// The first admission not undone, if the guest is checked in.
    public var checkedIn: PriorCheckIn?

    public init(guest: Guest, accessTypeName: String, checkedIn: PriorCheckIn?) {
        self.guest = guest
        self.accessTypeName = accessTypeName
        self.checkedIn = checkedIn
    }
}

enum GuestRecord {
    /// A guest's columns, its record opened (0009_sealed_guest_record.sql): `g` is the guests table.
    static let columns = """
        g.id, kiosk_guest_field(g.sealed, 'code') AS code, kiosk_guest_field(g.sealed, 'name') AS name,
        kiosk_guest_field(g.sealed, 'email') AS email, kiosk_guest_field(g.sealed, 'company') AS company,
        g.access_type_id, g.revoked, g.walk_in
        """
    /// The sealed column `kiosk_search_tokens` and `kiosk_guest_matches` take.
    static let sealedSearchColumns = "g.sealed"

    static func guest(_ row: Row) -> Guest {
        Guest(
            id: row["id"], code: TicketCode(stored: row["code"]), name: row["name"], email: row["email"],
            company: row["company"], accessTypeID: row["access_type_id"], revoked: row["revoked"], walkIn: row["walk_in"])
    }

    static func accessType(_ row: Row) -> AccessType {
        AccessType(
            id: row["id"], name: row["name"], reentry: row["reentry"],
            validFrom: (row["valid_from"] as Int64?).map(Timestamp.init(milliseconds:)),
            validUntil: (row["valid_until"] as Int64?).map(Timestamp.init(milliseconds:)))
    }

    static func fetchGuest(_ db: Database, code: TicketCode) throws -> Guest? {
        try Row.fetchOne(db, sql: "SELECT \(columns) FROM guests g WHERE g.code = kiosk_code_digest(?)", arguments: [code.value]).map(guest)
    }

    static func fetchGuest(_ db: Database, id: String) throws -> Guest? {
        try Row.fetchOne(db, sql: "SELECT \(columns) FROM guests g WHERE g.id = ?", arguments: [id]).map(guest)
    }

    static func fetchAccessType(_ db: Database, id: String) throws -> AccessType? {
        try Row.fetchOne(db, sql: "SELECT * FROM access_types WHERE id = ?", arguments: [id]).map(accessType)
    }

    /// Admissions (entries and exits) not undone, oldest first.
    static func fetchAdmissions(_ db: Database, guestID: String) throws -> [CheckIn] {
        try Row.fetchAll(db, sql: """
            SELECT device_id, guest_id, scanned_at, station, operator, source, direction FROM check_ins
            WHERE guest_id = ? AND undone_at IS NULL ORDER BY scanned_at, id
            """, arguments: [guestID]).map(checkIn)
    }

    static func checkIn(_ row: Row) -> CheckIn {
        CheckIn(
            key: IdempotencyKey(deviceID: row["device_id"], guestID: row["guest_id"], scannedAt: Timestamp(milliseconds: row["scanned_at"])),
            station: row["station"], operatorName: row["operator"],
            source: CheckInSource(rawValue: row["source"]) ?? .typed,
            direction: Direction(rawValue: row["direction"]) ?? .entry)
    }

    static func details(_ db: Database, guest: Guest) throws -> GuestDetails {
        let typeName = try String.fetchOne(db, sql: "SELECT name FROM access_types WHERE id = ?", arguments: [guest.accessTypeID]) ?? guest.accessTypeID
        let first = try fetchAdmissions(db, guestID: guest.id).first { $0.direction == .entry }
        return GuestDetails(guest: guest, accessTypeName: typeName, checkedIn: first?.summary)
    }
}
