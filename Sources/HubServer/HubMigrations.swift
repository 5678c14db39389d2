import Crypto

/// The hub's migrations, embedded at build time from `Migrations/hub/{sqlite,postgres}`.
public struct HubMigration: Sendable, Hashable {
    /// File name without `.sql`, e.g. `0001_hub_schema`.
    public let name: String
    public let sql: String

    /// SHA-256 of the SQL text, recorded when applied: a shipped file is never edited.
    public var checksum: String { SHA256.hash(data: Array(sql.utf8)).hexString }

    public static let sqlite: [HubMigration] = embeddedHubSQLiteMigrations.map { HubMigration(name: $0.name, sql: $0.sql) }
    public static let postgres: [HubMigration] = embeddedHubPostgresMigrations.map { HubMigration(name: $0.name, sql: $0.sql) }
}

extension Sequence where Element == UInt8 {
    var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        for byte in self {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
