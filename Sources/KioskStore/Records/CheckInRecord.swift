import CheckInCore
import GRDB

/// A row of `check_ins` (admissions: entries and exits, own and synced), as the rules read it.
/// Decoded by column name (see ``OpenedGuestRecord``): every check-in reads these.
struct CheckInRecord: FetchableRecord, Sendable {
    static let databaseTableName = "check_ins"

    var id: Int64
    var deviceID: String
    var guestID: String
    /// Milliseconds since 1970.
    var scannedAt: Int64
    var station: String
    var operatorName: String
    var source: String
    var direction: String

    init(row: Row) {
        id = row["id"]
        deviceID = row["device_id"]
        guestID = row["guest_id"]
        scannedAt = row["scanned_at"]
        station = row["station"]
        operatorName = row["operator"]
        source = row["source"]
        direction = row["direction"]
    }

    /// The check-in. A source or direction this version does not know reads as typed / entry.
    var checkIn: CheckIn {
        CheckIn(
            key: IdempotencyKey(deviceID: deviceID, guestID: guestID, scannedAt: Timestamp(milliseconds: scannedAt)),
            station: station, operatorName: operatorName,
            source: CheckInSource(rawValue: source) ?? .typed,
            direction: Direction(rawValue: direction) ?? .entry)
    }

    /// The columns read, in SQL (`*` read the upload state too, on every check-in).
    static let columns = "id, device_id, guest_id, scanned_at, station, operator, source, direction"

    /// Admissions (entries and exits) not undone, oldest first.
    static func fetchAdmissions(_ db: Database, guestID: String) throws -> [CheckIn] {
        try fetchAll(db, sql: "SELECT \(columns) FROM check_ins WHERE guest_id = ? AND undone_at IS NULL ORDER BY scanned_at, id",
                     arguments: [guestID]).map(\.checkIn)
    }
}
