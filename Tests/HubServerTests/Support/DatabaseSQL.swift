import Foundation
import GRDB
import KioskTestSupport

/// Raw SQL against a hub database behind the store's back: to plant rows an older hub could have
/// stored, and to read audit tables the API does not expose.
enum DatabaseSQL {
    /// Runs `sql` on `url` (`sqlite:PATH` or `postgres://…`) and returns the first column of each row as text.
    @discardableResult
    static func run(_ url: String, _ sql: String) throws -> [String] {
        if url.hasPrefix("sqlite:") {
            let queue = try DatabaseQueue(path: String(url.dropFirst("sqlite:".count)))
            defer { try? queue.close() }
            return try queue.write { db in
                try Row.fetchAll(db, sql: sql).map { row in
                    guard let value = row.databaseValues.first else { return "" }
                    return String.fromDatabaseValue(value) ?? Int64.fromDatabaseValue(value).map(String.init) ?? ""
                }
            }
        }
        guard let components = URLComponents(string: url), let host = components.host, let port = components.port else {
            throw ClusterError("not a database URL: \(url)")
        }
        let result = try KioskTestSupport.run(
            try PostgresCluster.bin("psql"),
            ["-h", host, "-p", String(port), "-U", components.user ?? "kiosk", "-d", String(components.path.dropFirst()),
             "-v", "ON_ERROR_STOP=1", "-At", "-c", sql])
        guard result.status == 0 else { throw ClusterError("psql: \(result.stderr)") }
        return result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }

    /// Runs statements (several, separated by `;`) that return nothing.
    static func execute(_ url: String, _ sql: String) throws {
        if url.hasPrefix("sqlite:") {
            let queue = try DatabaseQueue(path: String(url.dropFirst("sqlite:".count)))
            defer { try? queue.close() }
            try queue.write { db in try db.execute(sql: sql) }
        } else {
            try run(url, sql)
        }
    }

    /// Plants an accepted check-in as a hub before the plausible-time check could have stored it.
    static func plantCheckIn(_ url: String, event: String, device: String, guest: String, scannedAt: Int64) throws {
        let sqlite = url.hasPrefix("sqlite:")
        if sqlite { try run(url, "UPDATE hub_counters SET value = value + 1 WHERE name = 'change_seq' RETURNING value") }
        try run(url, """
            INSERT INTO check_ins (event_id, device_id, guest_id, scanned_at, station, operator_name, source, direction, status, decision,
                received_at, seq)
            VALUES ('\(event)', '\(device)', '\(guest)', \(scannedAt), 'Planted', 'Mallory', 'typed', 'entry', 'accepted', 'admitted',
                0, \(sqlite ? "(SELECT value FROM hub_counters WHERE name = 'change_seq')" : "nextval('change_seq')"))
            RETURNING id
            """)
    }
}
