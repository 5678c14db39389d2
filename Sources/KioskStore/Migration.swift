import Foundation

/// One schema migration: `NNNN_name.sql`, whose number is the schema version it produces.
public struct Migration: Sendable, Hashable {
    /// The file name without `.sql`, e.g. `0002_guest_search`.
    public let name: String
    public let sql: String

    public init(name: String, sql: String) {
        self.name = name
        self.sql = sql
    }

    /// Whether the file asks for the compaction step after it (`-- kiosk:compact-after`): it
    /// encrypts or removes guest data, whose old pages must not stay in the file.
    public var compactsAfter: Bool { sql.contains("-- kiosk:compact-after") }

    /// The schema version this migration produces (its numeric prefix).
    public var version: Int { Int(name.prefix { $0.isNumber }) ?? 0 }

    /// FNV-1a (64 bit) of the SQL text: detects an edited shipped file (not an adversary).
    public var checksum: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in sql.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return String(format: "%016llx", hash)
    }

    /// The migrations built into this binary, from `Migrations/kiosk`.
    public static let embedded: [Migration] = embeddedKioskMigrations.map { Migration(name: $0.name, sql: $0.sql) }

    /// Reads `NNNN_name.sql` files from a folder (development and support override).
    public static func load(from directory: URL) throws -> [Migration] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".sql") }
            .sorted()
            .map { Migration(name: String($0.dropLast(4)), sql: try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)) }
    }
}
