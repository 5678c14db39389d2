import Logging

/// Opens the store named by `--db`: `sqlite:PATH` or `postgres://USER@HOST:PORT/DB`.
public enum HubDatabase {
    public static func open(_ url: String, logger: Logger) throws -> any HubStore {
        if url.hasPrefix("sqlite:") {
            let path = String(url.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw HubStoreError.invalidDatabaseURL(url) }
            return try SQLiteHubStore(path: path)
        }
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            return try PostgresHubStore(url: url, logger: logger)
        }
        throw HubStoreError.invalidDatabaseURL(url)
    }
}
