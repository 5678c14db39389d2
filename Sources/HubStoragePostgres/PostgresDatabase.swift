import HubStorage
import Logging
import PostgresNIO
import SchemaMigrations

/// The hub on PostgreSQL, for large events and several hub processes behind a load balancer.
///
/// Two kinds of advisory transaction locks make it exact across hub processes (``HubLocks``):
/// - a **guest lock** per guest of a check-in batch or undo, taken first and in ascending key
///   order: a guest's decision (known keys, standing admissions) cannot change between reading
///   and writing, while batches of different guests are decided in parallel;
/// - the **event lock**, taken by every write to an event just before it writes and held until
///   commit: change sequence numbers (`seq`, from `change_seq`) then commit in order within an
///   event, so a roster cursor never skips a change that commits late.
/// Guest locks are always taken before the event lock, so the two cannot deadlock.
///
/// Every write to an event also sends `NOTIFY checkin_hub_changes, '<event id>'` in its
/// transaction: PostgreSQL delivers it only after the commit, to every hub listening
/// (``reportChanges(to:)``), so a held roster long-poll on any hub wakes for a change committed
/// through any other.
public final class PostgresDatabase: SQLDatabase {
    public let dialect: any SQLDialect = PostgresDialect()
    let client: PostgresClient
    let logger: Logger
    let checkInStatistics = AnalyzeSchedule()
    /// For the one connection of this process that LISTENs (never one of the pool's: a pooled
    /// connection is handed to queries and closed at will).
    let listenerConfiguration: PostgresConnection.Configuration
    /// One connection at start, unnamed (see ``connect()``).
    let probeConfiguration: PostgresConnection.Configuration
    /// Where the database is, never with the password (logs and errors).
    let settingsDescription: String
    private let runner: Task<Void, Never>

    /// The hub's PostgreSQL schema, embedded at build time from `Migrations/hub/postgres`.
    public static let migrations = embeddedHubPostgresMigrations.map { SchemaMigration(name: $0.name, sql: $0.sql) }

    /// Connects to `postgres://USER@HOST[:PORT]/DATABASE[?sslmode=…&sslrootcert=…]`; the password
    /// and TLS as ``PostgresSettings`` reads them (never echoed: errors carry the URL redacted).
    public init(url: String, maximumConnections: Int = 20, passwordFile: String? = nil, logger: Logger) throws {
        let settings = try PostgresSettings.parse(url, passwordFile: passwordFile)
        logger.info("connecting to PostgreSQL", metadata: ["database": "\(settings)"])
        var configuration = try settings.clientConfiguration
        configuration.options.maximumConnections = maximumConnections
        var listener = try settings.connectionConfiguration
        probeConfiguration = listener
        settingsDescription = settings.description
        // Named, so an operator (or a test) can tell it apart in pg_stat_activity.
        listener.options.additionalStartupParameters = [("application_name", Self.listenerApplicationName)]
        listenerConfiguration = listener
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        // The pool runs from here until ``close()``: commands and tests use the store without a
        // service group. A serving hub closes it as a service of its group, once the server has
        // stopped (`StoreService` in HubServer).
        runner = Task { await client.run() }
    }

    public func close() async {
        runner.cancel()
        _ = await runner.value
    }

    /// A consistent snapshot for the body's reads (a roster page reads three tables).
    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await client.withConnection { connection in
            try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            do {
                let value = try await body(PostgresSQLConnection(connection: connection, logger: logger))
                try await connection.query("COMMIT", logger: logger)
                return value
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// A transaction whose body's own errors (an unknown event, an unknown person) come out as
    /// themselves: PostgresNIO wraps whatever the body throws in a `PostgresTransactionError`,
    /// which would turn "No event X" into an unreadable message and a 404 into a 503.
    public func write<T: Sendable>(changing event: String?, _ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        do {
            return try await client.withTransaction(logger: logger) { connection in
                try await body(PostgresSQLConnection(connection: connection, logger: logger))
            }
        } catch let error as PostgresTransactionError where error.rollbackError == nil && error.closureError != nil {
            throw Self.translated(error.closureError!)
        } catch {
            throw Self.translated(error)
        }
    }

    public func rows<T: Sendable>(_ query: SQL, _ decode: @escaping @Sendable (any SQLRow) throws -> T) async throws -> [T] {
        var decoded: [T] = []
        for try await row in try await client.query(PostgresSQLConnection.query(query), logger: logger) {
            decoded.append(try decode(PostgresSQLRow(row: row.makeRandomAccess())))
        }
        return decoded
    }

    public func execute(_ query: SQL) async throws {
        do {
            try await client.query(PostgresSQLConnection.query(query), logger: logger)
        } catch {
            throw Self.translated(error)
        }
    }

    /// Fresh planner statistics for a fast-growing table (``AnalyzeSchedule``).
    public func wrote(_ rows: Int, to table: SQLTable) async {
        switch table {
        case .guests:
            // Before the doors open: with the new event's rows unknown to the planner, check-in
            // lookups by guest id picked the e-mail index and read the whole event per batch
            // (ingest fell to a third until autovacuum's analyze caught up).
            guard rows > 1_000 else { return }
            do { try await client.query("ANALYZE guests", logger: logger) } catch {
                logger.warning("could not refresh guest statistics", metadata: ["error": "\(String(reflecting: error))"])
            }
        case .checkIns:
            guard checkInStatistics.record(rows) else { return }
            Task.detached { [client, logger, checkInStatistics] in
                defer { checkInStatistics.finished() }
                do { try await client.query("ANALYZE check_ins", logger: logger) } catch {
                    logger.warning("could not refresh check-in statistics", metadata: ["error": "\(String(reflecting: error))"])
                }
            }
        }
    }

    /// A broken unique constraint (SQLSTATE 23505) as the store's own error.
    static func translated(_ error: any Error) -> any Error {
        guard let error = error as? PSQLError, error.serverInfo?[.sqlState] == "23505" else { return error }
        return SQLConstraintViolation(error.serverInfo?[.message] ?? "unique constraint")
    }
}
