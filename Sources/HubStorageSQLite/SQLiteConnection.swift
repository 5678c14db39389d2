import GRDB
import HubStorage

/// A ``SQLConnection`` over one GRDB access. `@unchecked Sendable`: it crosses into the task a
/// ``CallingThreadExecutor`` runs, whose jobs all run on the access's own thread (GRDB checks).
struct SQLiteConnection: SQLConnection, @unchecked Sendable {
    let db: Database

    var dialect: any SQLDialect { SQLiteDialect() }

    func rows<T>(_ query: HubStorage.SQL, _ decode: (any SQLRow) throws -> T) async throws -> [T] {
        try fetch(query, decode)
    }

    func execute(_ query: HubStorage.SQL) async throws {
        try run(query)
    }

    /// SQLite has one writer at a time (``SQLiteDatabase/write(changing:_:)`` begins `IMMEDIATE`):
    /// the write transaction holds every lock these would take.
    func lockEvent(_ event: String) async throws {}
    func lockGuests(_ event: String, _ guests: [String]) async throws {}
    func lockSchema() async throws {}

    /// Reported after the commit by ``SQLiteDatabase`` itself, from the change sequence.
    func announce(_ event: String) async throws {}

    func executeScript(_ sql: String) async throws {
        try db.execute(sql: sql)
    }

    /// The rows of `query`, decoded as GRDB steps through them.
    func fetch<T>(_ query: HubStorage.SQL, _ decode: (any SQLRow) throws -> T) throws -> [T] {
        let statement = try db.cachedStatement(sql: query.sqliteText)
        let columns = GRDBRow.index(statement)
        let cursor = try Row.fetchCursor(statement, arguments: Self.arguments(query))
        var decoded: [T] = []
        while let row = try cursor.next() { decoded.append(try decode(GRDBRow(row: row, columns: columns))) }
        return decoded
    }

    func run(_ query: HubStorage.SQL) throws {
        try db.cachedStatement(sql: query.sqliteText).execute(arguments: Self.arguments(query))
    }

    static func arguments(_ query: HubStorage.SQL) -> StatementArguments {
        StatementArguments(query.binds.map { value -> DatabaseValue in
            switch value {
            case .null: .null
            case .integer(let integer): integer.databaseValue
            case .text(let text): text.databaseValue
            case .boolean(let bool): bool.databaseValue
            case .texts, .integers, .booleans: (SQLiteDialect.json(value) ?? "[]").databaseValue
            }
        })
    }
}
