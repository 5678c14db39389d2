import Foundation
import GRDB
import KioskStore

/// What a station process recorded, read from its database (opened with the station's storage
/// key, which the test process finds where the station did: guest data is sealed).
enum StationRecords {
    static func open(dataDir: String) throws -> KioskDatabase {
        try KioskDatabase.open(dataDirectory: URL(fileURLWithPath: dataDir), backgroundSearchIndex: false)
    }

    /// Every guest as one line, by the hub's id (each station has its own ids for the hub's
    /// guests): two stations hold the same roster when equal.
    static func rosterDump(dataDir: String) throws -> [String] {
        try open(dataDir: dataDir).read { db in
            try Row.fetchAll(db, sql: """
                SELECT CASE WHEN hub_id IS NOT NULL THEN kiosk_open(hub_id) WHEN from_hub THEN kiosk_guest_field(sealed, 'code') ELSE id END AS hub_id,
                    kiosk_guest_field(sealed, 'code') AS code, kiosk_guest_field(sealed, 'name') AS name,
                    kiosk_guest_field(sealed, 'email') AS email, kiosk_guest_field(sealed, 'company') AS company, access_type_id, revoked
                FROM guests ORDER BY 1
                """).map { "\($0)" }
        }
    }

    /// The hub's "who/where/when" kept on the station's own check-in the hub answered `duplicate`.
    static func duplicateDetail(dataDir: String) throws -> String? {
        try open(dataDir: dataDir).read { db in
            try String.fetchOne(db, sql: "SELECT hub_detail FROM check_ins WHERE origin = 'local' AND hub_status = 'duplicate'")
        }
    }

    /// The single integer a query answers.
    static func count(dataDir: String, sql: String) throws -> Int {
        try open(dataDir: dataDir).read { db in try Int.fetchOne(db, sql: sql) ?? 0 }
    }
}
