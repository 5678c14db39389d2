import HubStorage
import HubStoragePostgres
import HubStorageSQLite
import Logging
import SchemaMigrations

/// Opens the store named by `--db`: `sqlite:PATH` or `postgres://USER@HOST:PORT/DB`; `memory:`
/// is SQLite without a file, gone with the store (tests that run the hub in process).
public enum HubDatabase {
    /// - Parameter passwordFile: PostgreSQL's password (`--db-password-file`; see ``PostgresSettings``).
    public static func open(_ url: String, passwordFile: String? = nil, logger: Logger) throws -> any HubStore {
        if url == "memory:" {
            return SQLHubStore(database: try SQLiteDatabase.inMemory(), migrations: HubMigration.sqlite, kind: "memory")
        }
        if url.hasPrefix("sqlite:") {
            let path = String(url.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw HubStoreError.invalidDatabaseURL(url) }
            try HubDatabaseFiles.prepare(path)
            return SQLHubStore(database: try SQLiteDatabase(path: path), migrations: HubMigration.sqlite)
        }
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            return SQLHubStore(database: try PostgresDatabase(url: url, passwordFile: passwordFile, logger: logger), migrations: HubMigration.postgres)
        }
        // Whatever was given may hold a password: never echoed as it is.
        throw HubStoreError.invalidDatabaseURL(PostgresSettings.redacted(url))
    }
}

/// The hub's migrations, embedded at build time from `Migrations/hub/{sqlite,postgres}`.
public enum HubMigration {
    public static var sqlite: [SchemaMigration] { SQLiteDatabase.migrations }
    public static var postgres: [SchemaMigration] { PostgresDatabase.migrations }
}
