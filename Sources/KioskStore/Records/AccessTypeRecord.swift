import CheckInCore
import GRDB

/// A row of `access_types`.
struct AccessTypeRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "access_types"

    var id: String
    var name: String
    var reentry: Bool
    var entryAfterExit: Bool
    /// Milliseconds since 1970.
    var validFrom: Int64?
    var validUntil: Int64?
    var updatedAt: Int64

    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, name, reentry
        case entryAfterExit = "entry_after_exit"
        case validFrom = "valid_from"
        case validUntil = "valid_until"
        case updatedAt = "updated_at"
    }

    /// Decoded by column name (see ``OpenedGuestRecord``): every check-in reads one.
    init(row: Row) {
        id = row["id"]
        name = row["name"]
        reentry = row["reentry"]
        entryAfterExit = row["entry_after_exit"]
        validFrom = row["valid_from"]
        validUntil = row["valid_until"]
        updatedAt = row["updated_at"]
    }

    init(_ type: AccessType, updatedAt: Timestamp) {
        id = type.id
        name = type.name
        reentry = type.reentry
        entryAfterExit = type.entryAfterExit
        validFrom = type.validFrom?.milliseconds
        validUntil = type.validUntil?.milliseconds
        self.updatedAt = updatedAt.milliseconds
    }

    var accessType: AccessType {
        AccessType(id: id, name: name, reentry: reentry, entryAfterExit: entryAfterExit, validFrom: validFrom.map(Timestamp.init(milliseconds:)),
                   validUntil: validUntil.map(Timestamp.init(milliseconds:)))
    }

    static func fetchAccessType(_ db: Database, id: String) throws -> AccessType? {
        // SQL, not `fetchOne(db, key:)`: the query interface builds its statement at every call.
        try fetchOne(db, sql: "SELECT * FROM access_types WHERE id = ?", arguments: [id])?.accessType
    }

    /// The name staff see for an access type id (the id itself when the type is unknown).
    static func name(_ db: Database, id: String) throws -> String {
        try String.fetchOne(db, sql: "SELECT name FROM access_types WHERE id = ?", arguments: [id]) ?? id
    }
}
