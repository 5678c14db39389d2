import Foundation
import HubStorage
import HubStorageSQLite
import KioskTestSupport
import Testing

/// A hub that stops closes its database while a live page may still be refreshing its figures:
/// what reaches the database after that is refused in words, never run on the closed connection
/// (SQLite crashes the whole hub on a closed in-memory connection).
@Suite struct SQLiteClosingTests {
    @Test(arguments: ["memory", "file"])
    func aReadOrAWriteAfterTheDatabaseClosedIsRefusedInWordsNotACrash(kind: String) async throws {
        let directory = TemporaryDirectory("sqlite-closing")
        defer { directory.remove() }
        let database = kind == "memory" ? try SQLiteDatabase.inMemory() : try SQLiteDatabase(path: directory.url.appendingPathComponent("hub.sqlite").path)
        let one = try await database.rows("SELECT 1 AS one") { try $0.integer("one") }
        #expect(one == [1])
        await database.close()
        await #expect(throws: (any Error).self) { _ = try await database.rows("SELECT 1 AS one") { try $0.integer("one") } }
        await #expect(throws: (any Error).self) { _ = try await database.read { try await $0.rows("SELECT 1 AS one") { try $0.integer("one") } } }
        await #expect(throws: (any Error).self) { try await database.execute("CREATE TABLE t (x INTEGER)") }
        await #expect(throws: (any Error).self) { _ = try await database.write(changing: nil) { try await $0.execute("CREATE TABLE t (x INTEGER)") } }
    }
}
