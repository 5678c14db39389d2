import GRDB
import HubStorage
import SchemaMigrations
import Synchronization

/// The hub's embedded default: one SQLite file through GRDB (WAL, one writer). Every write is one
/// `BEGIN IMMEDIATE` transaction, which is what makes dedupe exact here.
///
/// ``inMemory()`` is the same database without a file, for tests that run the hub in process.
public final class SQLiteDatabase: SQLDatabase {
    public let dialect: any SQLDialect = SQLiteDialect()
    let writer: any DatabaseWriter
    private let sequence: ChangeSequence
    /// Where commits are reported while the hub serves (``reportChanges(to:)``).
    private let sink = Mutex<(any ChangeSink)?>(nil)
    /// Set before the connection closes. A read still under way then (a live page refreshing its
    /// figures as the hub stops) must get an error: SQLite on a closed in-memory connection crashes.
    private let closed = Atomic<Bool>(false)

    /// The hub's SQLite schema, embedded at build time from `Migrations/hub/sqlite`.
    public static let migrations = embeddedHubSQLiteMigrations.map { SchemaMigration(name: $0.name, sql: $0.sql) }

    public convenience init(path: String) throws {
        let sequence = ChangeSequence()
        try self.init(try DatabasePool(path: path, configuration: Self.configuration(sequence)), sequence)
    }

    /// A database that lives as long as this value, in memory: what `--db memory:` opens.
    public static func inMemory() throws -> SQLiteDatabase {
        let sequence = ChangeSequence()
        return try SQLiteDatabase(DatabaseQueue(configuration: configuration(sequence)), sequence)
    }

    private init(_ writer: any DatabaseWriter, _ sequence: ChangeSequence) throws {
        self.writer = writer
        self.sequence = sequence
    }

    private static func configuration(_ sequence: ChangeSequence) -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            db.add(function: sequence.function)
        }
        return configuration
    }

    public func connect() async throws {}

    public func close() async {
        closed.store(true, ordering: .sequentiallyConsistent)
        try? writer.close()
    }

    /// The connection for a closure the writer runs. The writer runs its closures and its closing
    /// one at a time, so a closure that starts after ``close()`` sees it here.
    private func connection(_ db: Database) throws -> SQLiteConnection {
        guard !closed.load(ordering: .sequentiallyConsistent) else { throw HubStoreError.unavailable("the hub is closing its database") }
        return SQLiteConnection(db: db)
    }

    /// A read. A file's pool refuses reads itself once closed; the in-memory database's one
    /// connection would first begin the read on the closed connection, so there the read runs as
    /// the writer's own closure, checked first (it has no other reader to share the work with).
    private func reading<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        if writer is DatabaseQueue {
            return try await writer.writeWithoutTransaction { [self] db in try body(try connection(db)) }
        }
        return try await writer.read { [self] db in try body(try connection(db)) }
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await reading { connection in try CallingThreadExecutor.run { try await body(connection) } }
    }

    /// When the transaction drew change sequence numbers, the change sink hears of it after the
    /// commit (never before: a woken long-poll must find the change), with the counter's value,
    /// which no earlier change of the event exceeds.
    public func write<T: Sendable>(changing event: String?, _ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        let (value, drawn) = try await writer.writeWithoutTransaction { [self, sequence] db in
            let connection = try connection(db)
            var value: T?
            var drawn: Int64?
            do {
                try db.inTransaction(.immediate) {
                    let began = try event.map { _ in try sequence.begin(db) }
                    value = try CallingThreadExecutor.run { try await body(connection) }
                    if let began { drawn = try sequence.end(db, began: began) }
                    return .commit
                }
            } catch {
                sequence.abandon()
                throw Self.translated(error)
            }
            return (value!, drawn)
        }
        if let event, let drawn { sink.withLock { $0 }?.changed(event: event, sequence: drawn) }
        return value
    }

    public func rows<T: Sendable>(_ query: HubStorage.SQL, _ decode: @escaping @Sendable (any SQLRow) throws -> T) async throws -> [T] {
        try await reading { connection in try connection.fetch(query, decode) }
    }

    public func execute(_ query: HubStorage.SQL) async throws {
        do {
            try await writer.write { [self] db in try connection(db).run(query) }
        } catch {
            throw Self.translated(error)
        }
    }

    public func wrote(_ rows: Int, to table: SQLTable) async {}

    /// One hub process serves a SQLite file, so its own commits are all it needs to report at
    /// once. Other processes writing the file (`checkin-hub import`, `access-type add`) are not
    /// seen this way: the sink is told reports are incomplete, and polls ``ChangeSource/latestChange(event:)``.
    public func reportChanges(to sink: any ChangeSink) async {
        self.sink.withLock { $0 = sink }
        sink.reportsEveryChange(false)
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(3_600)) }
        self.sink.withLock { $0 = nil }
    }

    /// A broken unique constraint as the store's own error.
    static func translated(_ error: any Error) -> any Error {
        guard let error = error as? DatabaseError,
              [.SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY].contains(error.extendedResultCode)
        else { return error }
        return SQLConstraintViolation(error.message ?? "unique constraint")
    }
}
