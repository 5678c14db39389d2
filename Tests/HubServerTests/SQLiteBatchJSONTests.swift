@testable import HubStorageSQLite
import Foundation
import HubStorage
import Testing

/// The JSON the SQLite dialect binds batches and lists as: what `json_each` must read back to
/// the very strings and numbers the store wrote, whatever a name holds.
@Suite struct SQLiteBatchJSONTests {
    static let hostile = ["plain", "quote \" and \\ backslash", "tab\tnew\nline\u{1}\u{1F}", "Zoë 名前 🎟️", "", "</script>", "\u{7F}"]

    @Test func aBatchOfHostileStringsIsJSONThatParsesBackToTheSameValues() throws {
        let batch = SQLBatch([
            SQLBatch.Column("name", .text(Self.hostile)),
            SQLBatch.Column("reason", .optionalText(Self.hostile.enumerated().map { $0.offset.isMultiple(of: 2) ? nil : $0.element })),
            SQLBatch.Column("at", .integer(Self.hostile.indices.map { Int64($0) - 9_223_372_036_854_775_807 })),
            SQLBatch.Column("prev", .optionalInteger(Self.hostile.indices.map { $0 == 1 ? nil : Int64($0) })),
            SQLBatch.Column("reentry", .boolean(Self.hostile.indices.map { $0.isMultiple(of: 3) })),
        ])
        let text = SQLiteDialect.json(batch)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[Any]])
        #expect(rows.count == Self.hostile.count)
        for (index, row) in rows.enumerated() {
            #expect(row[0] as? String == Self.hostile[index])
            #expect((row[1] as? String) == (index.isMultiple(of: 2) ? nil : Self.hostile[index]))
            #expect((row[2] as? NSNumber)?.int64Value == Int64(index) - 9_223_372_036_854_775_807)
            #expect((row[3] as? NSNumber)?.int64Value == (index == 1 ? nil : Int64(index)))
            #expect((row[4] as? Bool) == index.isMultiple(of: 3))
        }
    }

    @Test func aListIsAJSONArrayOfItsValues() throws {
        let text = try #require(SQLiteDialect.json(.texts(Self.hostile)))
        #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String] == Self.hostile)
        #expect(SQLiteDialect.json(.integers([1, -2, Int64.max])) == "[1,-2,9223372036854775807]")
        #expect(SQLiteDialect.json(.booleans([true, false])) == "[true,false]")
        #expect(SQLiteDialect.json(.texts([])) == "[]")
    }
}
