/// One SQL database as the hub's store uses it: reads, write transactions and the few
/// operations that really differ per database. ``SQLHubStore`` writes every repository
/// operation once over it; `HubStorageSQLite` and `HubStoragePostgres` implement it.
public protocol SQLDatabase: Sendable {
    var dialect: any SQLDialect { get }

    /// Runs `body` on one connection, reading one consistent snapshot of the database.
    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T

    /// Runs `body` in one write transaction: all of it commits, or none. `event` names the event
    /// whose roster the transaction may change (its change sequence numbers are reported once
    /// committed, ``ChangeSink``); unique-constraint violations surface as ``SQLConstraintViolation``.
    func write<T: Sendable>(changing event: String?, _ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T

    /// One read statement outside any transaction (no snapshot to keep: the cheapest read).
    func rows<T: Sendable>(_ query: SQL, _ decode: @escaping @Sendable (any SQLRow) throws -> T) async throws -> [T]

    /// One statement that writes nothing an event's roster follows, committed on its own.
    func execute(_ query: SQL) async throws

    /// Reaches the database once and says why that fails (``HubStoreError/unavailable(_:)``),
    /// before anything waits on it: the first thing a hub does with it (``SQLHubStore/migrate()``).
    func connect() async throws

    /// Reports committed changes to `sink` until the calling task is cancelled (``ChangeSource``).
    func reportChanges(to sink: any ChangeSink) async

    /// `rows` were just written to `table`: PostgreSQL may refresh its planner statistics.
    func wrote(_ rows: Int, to table: SQLTable) async

    func close() async
}

/// The tables whose planner statistics matter to the hub (``SQLDatabase/wrote(_:to:)``).
public enum SQLTable: Sendable {
    case guests
    case checkIns
}

/// The connection a ``SQLDatabase`` body runs on: statements, and the locks and notices of a
/// write transaction. Used only inside that body.
public protocol SQLConnection {
    var dialect: any SQLDialect { get }

    /// The rows `query` returns, each decoded while the database hands it over.
    func rows<T>(_ query: SQL, _ decode: (any SQLRow) throws -> T) async throws -> [T]

    func execute(_ query: SQL) async throws

    /// Takes `event`'s write lock until the transaction ends: every transaction that draws
    /// change sequence numbers for an event takes it before drawing the first, so within an
    /// event sequence order is commit order and a roster cursor never skips a change.
    func lockEvent(_ event: String) async throws

    /// Locks these guests of `event` until the transaction ends (always before the event lock):
    /// a guest's recorded check-ins cannot change between reading and writing, while batches
    /// of other guests go on in parallel.
    func lockGuests(_ event: String, _ guests: [String]) async throws

    /// Tells every hub, once this transaction commits, that `event` changed.
    func announce(_ event: String) async throws

    /// Runs a migration file: several statements, each ending with `;`.
    func executeScript(_ sql: String) async throws

    /// Takes the schema's lock until the transaction ends: one hub process migrates at a time.
    func lockSchema() async throws
}

extension SQLConnection {
    /// The first row `query` returns, decoded; `nil` when it returns none.
    public func row<T>(_ query: SQL, _ decode: (any SQLRow) throws -> T) async throws -> T? {
        try await rows(query, decode).first
    }

    /// Whether `query` returns a row.
    public func exists(_ query: SQL) async throws -> Bool {
        try await !rows(query) { _ in () }.isEmpty
    }
}

/// A write broke a unique constraint (a race two writers lost and won): the store says what in
/// the hub's words (``HubStoreError/duplicateStaff(_:)``).
public struct SQLConstraintViolation: Error, Sendable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}
