import Foundation
@_exported import SchemaMigrations

/// The station's schema migrations are `NNNN_name.sql` files like the hub's, one type for both
/// (``SchemaMigrations/SchemaMigration``): its checksum recorded when applied, the station's
/// earlier FNV-1a checksums still accepted (``SchemaMigrations/SchemaMigration/matches(recorded:)``).
public typealias Migration = SchemaMigration

extension SchemaMigration {
    /// Whether the file asks for the compaction step after it (`-- kiosk:compact-after`): it
    /// encrypts or removes guest data, whose old pages must not stay in the file.
    public var compactsAfter: Bool { sql.contains("-- kiosk:compact-after") }

    /// The schema version this migration produces (its numeric prefix).
    public var version: Int { Int(name.prefix { $0.isNumber }) ?? 0 }

    /// The station's migrations built into this binary, from `Migrations/kiosk`.
    public static let embedded: [SchemaMigration] = embeddedKioskMigrations.map { SchemaMigration(name: $0.name, sql: $0.sql) }

    /// Reads `NNNN_name.sql` files from a folder (development and support override).
    public static func load(from directory: URL) throws -> [SchemaMigration] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".sql") }
            .sorted()
            .map { SchemaMigration(name: String($0.dropLast(4)), sql: try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)) }
    }
}
