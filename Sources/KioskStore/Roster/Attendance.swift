import CheckInCore
import Foundation
import GRDB
import RosterCSV

/// One guest of `kiosk export attendance`: their first admission and whether they are inside,
/// from every door this station knows of (its own check-ins and those synced from the hub).
public struct AttendanceRecord: Sendable, Hashable {
    public var guest: Guest
    public var accessTypeName: String
    /// The first entry not undone; `nil`: never admitted.
    public var firstEntry: PriorCheckIn?
    /// The last movement not undone is an entry.
    public var inside: Bool
}

extension RosterStore {
    /// Every guest, by name, with their attendance.
    public func attendance() throws(StoreError) -> [AttendanceRecord] {
        try requireUsable()
        return try wrap {
            try writer.read { db in
                try Row.fetchAll(db, sql: """
                    WITH live AS (SELECT * FROM check_ins WHERE undone_at IS NULL),
                    firsts AS (
                        SELECT guest_id, station, operator, device_id, scanned_at,
                            row_number() OVER (PARTITION BY guest_id ORDER BY scanned_at, id) AS n
                        FROM live WHERE direction = 'entry'
                    ), lasts AS (
                        SELECT guest_id, direction,
                            row_number() OVER (PARTITION BY guest_id ORDER BY scanned_at DESC, CASE direction WHEN 'exit' THEN 0 ELSE 1 END, id DESC) AS n
                        FROM live
                    )
                    SELECT \(OpenedGuestRecord.columns), coalesce(a.name, g.access_type_id) AS access_type_name,
                        f.station AS first_station, f.operator AS first_operator, f.device_id AS first_device, f.scanned_at AS first_at,
                        l.direction AS last_direction
                    FROM guests g
                    LEFT JOIN access_types a ON a.id = g.access_type_id
                    LEFT JOIN firsts f ON f.guest_id = g.id AND f.n = 1
                    LEFT JOIN lasts l ON l.guest_id = g.id AND l.n = 1
                    ORDER BY name, g.id
                    """).map { row in
                    AttendanceRecord(
                        guest: try OpenedGuestRecord(row: row).guest, accessTypeName: row["access_type_name"],
                        firstEntry: (row["first_at"] as Int64?).map {
                            PriorCheckIn(by: row["first_operator"], station: row["first_station"], deviceID: row["first_device"], at: Timestamp(milliseconds: $0))
                        },
                        inside: (row["last_direction"] as String?) == Direction.entry.rawValue)
                }
            }
        }
    }

    /// The attendance as CSV (`code,name,email,company,access_type,checked_in,first_entry_at,station,operator,inside`),
    /// times in ISO 8601 UTC.
    public static func attendanceCSV(_ records: [AttendanceRecord]) -> String {
        CSVWriter.line(["code", "name", "email", "company", "access_type", "checked_in", "first_entry_at", "station", "operator", "inside"])
            + records.map { record in
                let guest = record.guest
                return CSVWriter.line([
                    guest.code.value, guest.name, guest.email, guest.company, record.accessTypeName,
                    record.firstEntry == nil ? "no" : "yes", record.firstEntry?.at.iso8601 ?? "", record.firstEntry?.station ?? "",
                    record.firstEntry?.by ?? "", record.inside ? "yes" : "no",
                ].map(Sanitized.text))
            }.joined()
    }
}
