import CheckInCore
import HubAPI
import SchemaMigrations

/// The hub's store over a SQL database: every repository operation written once, over
/// ``SQLDatabase``; SQLite (`HubStorageSQLite`) and PostgreSQL (`HubStoragePostgres`) supply the
/// transactions and the few fragments that really differ (``SQLDialect``).
///
/// Writes to an event's roster follow one rule, whatever the database: take the event's lock
/// (``SQLConnection/lockEvent(_:)``) before drawing change sequence numbers (`nextval('change_seq')`),
/// and announce the change (``SQLConnection/announce(_:)``), so a roster cursor never skips a change
/// and every hub's long-polls wake once it commits.
public final class SQLHubStore: HubStore {
    let database: any SQLDatabase
    let migrations: [SchemaMigration]
    public let kind: String

    /// - Parameters:
    ///   - migrations: the schema of `database`'s dialect, embedded in its target.
    ///   - kind: what the store says it is (``HubStore/kind``); the dialect's name by default.
    public init(database: any SQLDatabase, migrations: [SchemaMigration], kind: String? = nil) {
        self.database = database
        self.migrations = migrations
        self.kind = kind ?? database.dialect.words.name
    }

    public func migrate() async throws -> [String] {
        try await database.connect()
        do {
            return try await HubMigrationRunner.run(migrations, on: database)
        } catch MigrationProblem.checksumMismatch(let name) {
            throw HubStoreError.migrationChecksumMismatch(name)
        }
    }

    public func schemaVersion() async throws -> String {
        try await database.rows("SELECT coalesce(max(name), '') AS name FROM hub_migrations") { try $0.text("name") }.first ?? ""
    }

    public func close() async { await database.close() }

    /// Throws ``HubStoreError/unknownEvent(_:)`` unless the event exists.
    static func requireEvent(_ id: String, on connection: any SQLConnection) async throws {
        guard try await connection.exists("SELECT 1 FROM events WHERE id = \(id)") else { throw HubStoreError.unknownEvent(id) }
    }

    /// Writes `action` inside the caller's transaction: every audited change goes through here.
    static func record(_ action: OrganizerAction?, on connection: any SQLConnection) async throws {
        guard let action else { return }
        try await connection.execute("""
            INSERT INTO organizer_actions (event_id, actor_id, actor_name, kind, subject, detail, at)
            VALUES (\(action.eventID), \(action.actorID), \(action.actorName), \(action.kind.rawValue), \(action.subject),
                \(action.detail), \(action.at))
            """)
    }
}

extension Timestamp: SQLBindable {
    /// Milliseconds since the epoch: how the hub stores every instant.
    public var sqlValue: SQLValue { .integer(milliseconds) }
}
