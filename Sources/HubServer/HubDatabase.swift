import Logging

/// Opens the store named by `--db`: `sqlite:PATH` or `postgres://USER@HOST:PORT/DB`.
public enum HubDatabase {
    /// - Parameter passwordFile: PostgreSQL's password (`--db-password-file`; see ``PostgresSettings``).
    public static func open(_ url: String, passwordFile: String? = nil, logger: Logger) throws -> any HubStore {
        if url.hasPrefix("sqlite:") {
            let path = String(url.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw HubStoreError.invalidDatabaseURL(url) }
            return try SQLiteHubStore(path: path)
        }
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            return try PostgresHubStore(url: url, passwordFile: passwordFile, logger: logger)
        }
        // Whatever was given may hold a password: never echoed as it is.
        throw HubStoreError.invalidDatabaseURL(PostgresSettings.redacted(url))
    }
}
