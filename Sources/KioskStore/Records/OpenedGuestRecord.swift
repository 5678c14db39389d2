import CheckInCore
import GRDB

/// A guest row read with its record opened in SQL (``columns``, `g` being the guests table),
/// for the reads inside deciding transactions and joined queries (search, attendance).
/// The `kiosk_guest_field` calls of a row open its record once (``CipherFunctions``).
/// Decoded by column name, not through `Decodable`: GRDB's keyed decoding made a check-in's
/// reads a fifth slower (`kiosk bench store`, p50 0.94 ms against 0.78).
struct OpenedGuestRecord: FetchableRecord, Sendable {
    var id: String
    var code: String
    var name: String
    var email: String
    var company: String
    var accessTypeID: String
    var revoked: Bool
    var walkIn: Bool
    var facts: TicketFacts

    init(row: Row) {
        id = row["id"]
        code = row["code"]
        name = row["name"]
        email = row["email"]
        company = row["company"]
        accessTypeID = row["access_type_id"]
        revoked = row["revoked"]
        walkIn = row["walk_in"]
        facts = GuestFields.facts(encoded: row["facts"])
    }

    /// The selected columns, in SQL.
    static let columns = """
        g.id, kiosk_guest_field(g.sealed, 'code') AS code, kiosk_guest_field(g.sealed, 'name') AS name,
        kiosk_guest_field(g.sealed, 'email') AS email, kiosk_guest_field(g.sealed, 'company') AS company,
        g.access_type_id, g.revoked, g.walk_in, kiosk_guest_facts(g.sealed) AS facts
        """

    var guest: Guest {
        Guest(id: id, code: TicketCode(stored: code), name: name, email: email, company: company, accessTypeID: accessTypeID,
              revoked: revoked, walkIn: walkIn, facts: facts)
    }

    static func fetchGuest(_ db: Database, code: TicketCode) throws -> Guest? {
        try fetchOne(db, sql: "SELECT \(columns) FROM guests g WHERE g.code = kiosk_code_digest(?)", arguments: [code.value])?.guest
    }

    static func fetchGuest(_ db: Database, id: String) throws -> Guest? {
        try fetchOne(db, sql: "SELECT \(columns) FROM guests g WHERE g.id = ?", arguments: [id])?.guest
    }
}
