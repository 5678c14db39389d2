import SchemaMigrations

/// Applies the hub's migrations to either database: the plan (``SchemaMigrations/MigrationPlan``)
/// from what `hub_migrations` recorded, then each pending file in its own transaction with its
/// record, under the schema lock. A hub that waited for another's lock finds the file recorded
/// and skips it.
enum HubMigrationRunner {
    static func run(_ migrations: [SchemaMigration], on database: any SQLDatabase) async throws -> [String] {
        let recorded = try await database.write(changing: nil) { connection in
            try await connection.lockSchema()
            try await connection.execute("CREATE TABLE IF NOT EXISTS hub_migrations (name TEXT PRIMARY KEY, checksum TEXT NOT NULL)")
            return try await connection.rows("SELECT name, checksum FROM hub_migrations") { (try $0.text("name"), try $0.text("checksum")) }
        }
        var applied: [String] = []
        for migration in try MigrationPlan.pending(migrations, recorded: Dictionary(recorded, uniquingKeysWith: { first, _ in first })) {
            let appliedNow = try await database.write(changing: nil) { connection in
                try await connection.lockSchema()
                if let checksum = try await connection.row("SELECT checksum FROM hub_migrations WHERE name = \(migration.name)", { try $0.text("checksum") }) {
                    guard migration.matches(recorded: checksum) else { throw MigrationProblem.checksumMismatch(migration.name) }
                    return false
                }
                try await connection.executeScript(migration.sql)
                try await connection.execute("INSERT INTO hub_migrations (name, checksum) VALUES (\(migration.name), \(migration.checksum))")
                return true
            }
            if appliedNow { applied.append(migration.name) }
        }
        return applied
    }
}
