/// What really differs between SQLite and PostgreSQL in the hub's statements, as fragments the
/// shared statements splice in. Everything else is written once.
public protocol SQLDialect: Sendable {
    var words: SQLWords { get }
    /// A condition: `expression` is one of `values` (an array, or a JSON list).
    func expression(_ expression: String, isIn values: SQLValue) -> SQL
    /// The batch's rows as a table `alias` with the batch's columns and `n`, the row's position from 1.
    func table(_ batch: SQLBatch, as alias: String) -> SQL
    /// The values of `column` that `query` selects, in its order, joined by newlines (NULL or `''` for none).
    func joinedLines(_ column: String, from query: String) -> String
    /// An expression that takes `event`'s write lock until the transaction ends (`1` on SQLite,
    /// which has one writer); see ``SQLConnection/lockEvent(_:)``.
    func eventLock(_ event: String) -> SQL
    /// An expression that tells every hub, once the transaction commits, that `event` changed
    /// (`1` on SQLite, whose commits are reported by the database itself).
    func changeNotice(_ event: String) -> SQL
}

/// The words a dialect spells its own way.
public struct SQLWords: Sendable {
    /// `sqlite` or `postgres`: what ``HubStore/kind`` says.
    public var name: String
    /// Case-insensitive `LIKE` (PostgreSQL's `ILIKE`; SQLite's `LIKE` already ignores ASCII case).
    public var caseInsensitiveLike: String
    /// Appended to a `SELECT` that is read to be changed: PostgreSQL's ` FOR UPDATE`, nothing on
    /// SQLite, whose write transaction already holds the whole database.
    public var forUpdate: String

    public init(name: String, caseInsensitiveLike: String, forUpdate: String) {
        self.name = name
        self.caseInsensitiveLike = caseInsensitiveLike
        self.forUpdate = forUpdate
    }
}
