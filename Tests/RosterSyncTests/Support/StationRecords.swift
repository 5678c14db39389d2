import Foundation
import GRDB

/// What a station process recorded, read straight from its database file.
enum StationRecords {
    static func open(dataDir: String) throws -> DatabaseQueue {
        try DatabaseQueue(path: URL(fileURLWithPath: dataDir).appendingPathComponent("kiosk.sqlite").path)
    }

    /// Every guest as one line, ordered by id: two stations hold the same roster when equal.
    static func rosterDump(dataDir: String) throws -> [String] {
        try open(dataDir: dataDir).read { db in
            try Row.fetchAll(db, sql: "SELECT id, code, name, email, company, access_type_id, revoked FROM guests ORDER BY id").map { "\($0)" }
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
