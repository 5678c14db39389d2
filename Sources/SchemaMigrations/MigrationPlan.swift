/// Which migrations to apply to a database, decided from what it recorded: a pure decision the
/// runners of each database carry out (no I/O here).
public enum MigrationPlan {
    /// The shipped migrations the database has not recorded, in name order.
    /// - Parameter recorded: name → checksum, as the database keeps them.
    /// - Throws: ``MigrationProblem/checksumMismatch(_:)`` when a recorded file differs from the
    ///   shipped one: nothing may be applied over a schema this release does not know.
    public static func pending(_ shipped: [SchemaMigration], recorded: [String: String]) throws(MigrationProblem) -> [SchemaMigration] {
        for migration in shipped {
            if let checksum = recorded[migration.name], !migration.matches(recorded: checksum) {
                throw .checksumMismatch(migration.name)
            }
        }
        return shipped.filter { recorded[$0.name] == nil }.sorted { $0.name < $1.name }
    }

    /// Recorded migrations this release does not ship: the database was migrated by a newer one.
    public static func unknown(_ shipped: [SchemaMigration], recorded: [String: String]) -> [String] {
        let names = Set(shipped.map(\.name))
        return recorded.keys.filter { !names.contains($0) }.sorted()
    }
}

/// Why a database cannot be migrated, with what the operator should do.
public enum MigrationProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case checksumMismatch(String)

    public var description: String {
        switch self {
        case .checksumMismatch(let name):
            "Migration \(name) differs from the one applied to this database. Do not edit shipped migrations; contact support."
        }
    }
}
