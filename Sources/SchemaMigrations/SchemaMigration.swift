import Crypto

/// One `NNNN_name.sql` migration file, for any of the project's databases (the hub's SQLite and
/// PostgreSQL, and the station's SQLite): applied once, in name order, each in its
/// own transaction, and never edited once shipped.
public struct SchemaMigration: Sendable, Hashable {
    /// The file name without `.sql`, e.g. `0001_hub_schema`.
    public let name: String
    public let sql: String

    public init(name: String, sql: String) {
        self.name = name
        self.sql = sql
    }

    /// SHA-256 of the SQL text, hex: recorded when the file is applied.
    public var checksum: String { SHA256.hash(data: Array(sql.utf8)).map { Self.hex($0, digits: 2) }.joined() }

    /// FNV-1a (64 bit) of the SQL text: what the station recorded before this type existed.
    public var legacyChecksum: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in sql.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return Self.hex(hash, digits: 16)
    }

    private static func hex(_ value: some BinaryInteger, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// Whether `recorded` (what the database kept when it applied this file) is this file's
    /// checksum, in either form: a database migrated by an earlier release is accepted as it is.
    public func matches(recorded: String) -> Bool {
        recorded == checksum || recorded == legacyChecksum
    }
}
