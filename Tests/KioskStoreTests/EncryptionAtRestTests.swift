import CheckInCore
import Foundation
import GRDB
import KioskTestSupport
import Testing
@testable import KioskStore

/// Guest data sealed at rest: search as before, keys that fail clearly and change nothing.
@Suite("Guest data encrypted at rest")
struct EncryptionAtRestTests {
    /// A roster in many scripts, with two-character CJK names and shared substrings.
    static let roster: [(name: String, email: String, company: String)] = [
        ("José Müller", "jose@example.com", "ACME"), ("Jose Muller", "jm@example.org", "Acme Ltd"), ("Ødegård Ås", "o@example.no", "Fjord AS"),
        ("王芳", "", "北京公司"), ("李娜", "lina@example.cn", "上海"), ("王小明", "xm@example.cn", "北京大学"), ("张伟", "", ""),
        ("Иван Петров", "ivan@example.ru", "Газпром"), ("Ірина Шевченко", "", "Київ"), ("Анна Иванова", "anna@example.ru", ""),
        ("محمد علي", "m@example.eg", "القاهرة"), ("فاطمة الزهراء", "", "شركة"), ("Ἀθηνᾶ Παππᾶ", "", "Ἀκαδημία"),
        ("Zoë O'Brien", "zoe@example.ie", "Dublin Co"), ("François Lefèvre", "fl@example.fr", "Société Générale"),
        ("Çağla Şahin", "cagla@example.tr", "İstanbul AŞ"), ("山田太郎", "taro@example.jp", "東京"), ("김민준", "", "서울"),
        ("Łukasz Żółć", "lz@example.pl", "Kraków"), ("Søren Kierkegaard", "", "København"), ("Ana", "a@b.co", "X"),
    ]

    static func guests() -> [Guest] {
        roster.enumerated().map { index, row in
            Guest(id: "g-\(index)", code: TicketCode(stored: "CODE-\(index)"), name: row.name, email: row.email, company: row.company,
                  accessTypeID: "general")
        }
    }

    /// What the plaintext search answered (0002 + 0004: every folded term a substring of the
    /// folded name, e-mail, company and code): the reference.
    static func reference(_ query: String, in guests: [Guest]) -> Set<String> {
        let terms = SearchText.fold(Sanitized.text(query)).split(whereSeparator: { $0.isWhitespace }).map { Array($0.utf8) }
        guard !terms.isEmpty else { return [] }
        return Set(guests.filter { guest in
            let text = Array(SearchText.fold([guest.name, guest.email, guest.company, guest.code.value].joined(separator: " ")).utf8)
            return terms.allSatisfy { text.firstRange(of: $0) != nil }
        }.map(\.id))
    }

    /// Queries: substrings of one to five characters of every field, upper-cased and not,
    /// pairs of terms, and some that match nothing.
    static func queries(_ guests: [Guest]) -> [String] {
        var queries = ["jose muller", "JOSÉ", "mull", "odegard", "王芳", "芳", "北京", "иван", "ПЕТР", "ірина", "محمد", "الزهراء",
                       "ἀθηνᾶ", "athena", "zoe o'b", "lefevre", "cagla", "istanbul", "東京", "민준", "lukasz zolc", "soren", "an",
                       "a", "é", "code-1", "example.c", "zzzz", "x y",
                       // Punctuation cuts a term into segments: across one, a segment of one, none left.
                       "e@e", "o'brien", "o'b", "e.c", "@example.com", "jose@", "-1", ".", "@", "a.b", "lina@example.cn", "'"]
        for guest in guests {
            let scalars = Array(guest.name.unicodeScalars)
            for length in 1...5 where scalars.count >= length {
                let start = scalars.count / 3
                let end = min(start + length, scalars.count)
                let piece = String(String.UnicodeScalarView(scalars[max(0, end - length)..<end]))
                queries += [piece, piece.uppercased()]
            }
            if let word = guest.company.split(separator: " ").first { queries.append("\(word.prefix(3)) \(guest.name.prefix(2))") }
            // Pairs inside e-mails and codes, followed by letters, digits, punctuation or nothing.
            let email = Array(guest.email.unicodeScalars)
            for start in stride(from: 0, to: max(0, email.count - 1), by: 3) {
                queries.append(String(String.UnicodeScalarView(email[start..<(start + 2)])))
            }
            queries += [String(guest.code.value.suffix(2)), String(guest.code.value.prefix(2)), String(guest.company.suffix(2))]
        }
        return queries
    }

    /// The ids of search results, each once: a guest found twice is a failure.
    static func distinctIDs(_ results: [GuestDetails]) -> Set<String> {
        let ids = results.map(\.guest.id)
        #expect(ids.count == Set(ids).count, "a guest appears twice: \(ids)")
        return Set(ids)
    }

    func station(key: URL? = nil, directory: TemporaryDirectory) throws -> KioskDatabase {
        try KioskDatabase.open(dataDirectory: directory.appending("data"), key: .keyFile(key ?? directory.appending("keys/station.key")),
                               backgroundSearchIndex: false)
    }

    @Test("search answers exactly what the plaintext search did, in every script, for substrings and case")
    func searchMatchesThePlaintextSearch() async throws {
        let directory = TemporaryDirectory("sealed-search")
        defer { directory.remove() }
        let database = try station(directory: directory)
        try await database.roster.saveAccessType(AccessType(id: "general", name: "General"))
        let guests = Self.guests()
        try await database.roster.saveGuests(Array(guests.prefix(10)))
        for guest in guests.dropFirst(10) { try await database.roster.saveGuest(guest) }  // one by one: the triggers' path
        var checked = 0
        for query in Self.queries(guests) {
            let found = Self.distinctIDs(try database.searchIndex.search(query, limit: 1_000))
            #expect(found == Self.reference(query, in: guests), "query \(query)")
            checked += 1
        }
        #expect(checked > 100)
    }

    @Test("guests staged for indexing are found exactly as indexed ones, before and after the catch-up")
    func stagedGuestsMatchThePlaintextSearch() async throws {
        let directory = TemporaryDirectory("sealed-staged")
        defer { directory.remove() }
        let database = try station(directory: directory)
        try await database.roster.saveAccessType(AccessType(id: "general", name: "General"))
        let named = Self.guests()
        let filler = (0..<RosterStore.inlineSearchIndexLimit).map {
            Guest(id: "f-\($0)", code: TicketCode(stored: "FILL-\($0)"), name: "Filler \($0)", accessTypeID: "general")
        }
        try await database.roster.saveGuests(named + filler)
        #expect(try database.searchIndex.pendingSearchCount() > 0, "a bulk write this large is staged")
        let queries = ["é", "芳", "."] + Self.queries(named).filter { !["a", "an", "x y"].contains($0) && $0.count > 1 }
        for query in queries.prefix(60) {
            let expected = Self.reference(query, in: named + filler)
            guard expected.count < 1_000 else { continue }  // a page, not every match: compared elsewhere
            #expect(Self.distinctIDs(try database.searchIndex.search(query, limit: 1_000)) == expected, "staged: \(query)")
        }
        try await database.searchIndex.finishSearchIndex()
        for query in queries.prefix(60) {
            let expected = Self.reference(query, in: named + filler)
            guard expected.count < 1_000 else { continue }
            #expect(Self.distinctIDs(try database.searchIndex.search(query, limit: 1_000)) == expected, "indexed: \(query)")
        }
    }

    @Test("a store written by 0008 has its guests sealed as records and indexed again by 0009, searching exactly as the plaintext search meanwhile")
    func tokensOfTheEarlierIndexAreReplaced() async throws {
        let directory = TemporaryDirectory("sealed-reindex")
        defer { directory.remove() }
        let key = StorageKeySource.keyFile(directory.appending("keys/station.key"))
        do {
            let v8 = try KioskDatabase.open(dataDirectory: directory.appending("data"), migrations: Array(Migration.embedded.prefix(8)),
                                            key: key, backgroundSearchIndex: false)
            // Written as 0008 wrote them (today's access type has columns 0008 did not have)
            _ = try await v8.write { db in
                try db.execute(sql: "INSERT INTO access_types (id, name, reentry, updated_at) VALUES ('general', 'General', 0, 1)")
            }
            // Written as 0008 wrote them: each field sealed on its own, indexed by its trigger.
            _ = try await v8.write { db in
                for guest in Self.guests() {
                    try db.execute(sql: """
                        INSERT INTO guests (id, code, sealed_code, name, email, company, access_type_id, updated_at)
                        VALUES (?1, kiosk_code_digest(?2), kiosk_seal(?2), kiosk_seal(?3), kiosk_seal(?4), kiosk_seal(?5), 'general', 1)
                        """, arguments: [guest.id, guest.code.value, guest.name, guest.email, guest.company])
                }
                // Tokens the new search never asks for, as whole-word tokens were.
                try db.execute(sql: "DELETE FROM guest_search; INSERT INTO guest_search (rowid, search_text) SELECT rowid, 'abcdef' FROM guests")
            }
        }
        let database = try KioskDatabase.open(dataDirectory: directory.appending("data"), key: key, backgroundSearchIndex: false)
        #expect(database.storage == .ready)
        let guests = Self.guests()
        #expect(try database.searchIndex.pendingSearchCount() == guests.count, "every guest is staged with its new tokens")
        let details = try guests.map { try database.roster.guest(id: $0.id)?.guest }
        #expect(details == guests.map { Optional($0) }, "every field survives the move into one record")
        #expect(try database.roster.guest(code: "code-3")?.guest.id == "g-3", "codes are still found by their digest")
        let queries = Self.queries(guests)
        for query in queries {
            #expect(Self.distinctIDs(try database.searchIndex.search(query, limit: 1_000)) == Self.reference(query, in: guests), "staged: \(query)")
        }
        try await database.searchIndex.finishSearchIndex()
        #expect(try database.searchIndex.pendingSearchCount() == 0)
        for query in queries {
            #expect(Self.distinctIDs(try database.searchIndex.search(query, limit: 1_000)) == Self.reference(query, in: guests), "indexed: \(query)")
        }
    }

    @Test("a wrong key or a missing key file is refused with what to do, and no file of the store changes")
    func wrongAndMissingKeysChangeNothing() async throws {
        let directory = TemporaryDirectory("sealed-keys")
        defer { directory.remove() }
        let key = directory.appending("keys/station.key")
        do {
            let database = try station(key: key, directory: directory)
            try await database.roster.saveAccessType(AccessType(id: "general", name: "General"))
            try await database.roster.saveGuests(Self.guests())
        }
        try Self.settle(directory.appending("data"))
        let before = try Self.snapshot(directory.appending("data"))

        let other = directory.appending("keys/other.key")
        try FileManager.default.createDirectory(at: other.deletingLastPathComponent(), withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: other.path, contents: StorageKey.random().fileContents, attributes: [.posixPermissions: 0o600])
        #expect(throws: StoreError.storageKey(.wrongKey(source: "the key file \(other.path)"))) { _ = try station(key: other, directory: directory) }

        try FileManager.default.moveItem(at: key, to: directory.appending("keys/moved.key"))
        #expect(throws: StoreError.storageKey(.keyFileMissing(path: key.path))) { _ = try station(key: key, directory: directory) }
        #expect(try Self.snapshot(directory.appending("data")) == before, "nothing stored was changed")

        try FileManager.default.moveItem(at: directory.appending("keys/moved.key"), to: key)
        #expect(try station(key: key, directory: directory).searchIndex.search("jose").count == 2, "the right key opens it again")
    }

    @Test("a key file inside the data directory or readable by others is refused")
    func keyFilesBesideTheDataOrOpenToOthersAreRefused() throws {
        let directory = TemporaryDirectory("sealed-place")
        defer { directory.remove() }
        let inside = directory.appending("data/station.key")
        #expect(throws: StoreError.storageKey(.keyFileInsideDataDirectory(path: inside.path))) { _ = try station(key: inside, directory: directory) }
        let open = directory.appending("open.key")
        FileManager.default.createFile(atPath: open.path, contents: StorageKey.random().fileContents, attributes: [.posixPermissions: 0o644])
        #expect(throws: StoreError.storageKey(.keyFileOpenToOthers(path: open.path))) { _ = try station(key: open, directory: directory) }
    }

    @Test("one damaged row is reported as damaged data when read; the other guests answer as before")
    func aCorruptedRowIsAClearErrorAndTheRestStillWorks() async throws {
        let directory = TemporaryDirectory("sealed-corrupt")
        defer { directory.remove() }
        do {
            let database = try station(directory: directory)
            try await database.roster.saveAccessType(AccessType(id: "general", name: "General"))
            try await database.roster.saveGuests(Self.guests())
        }
        // One byte of one sealed record changed on disk, as a failing SD card would, written past the
        // station (its search trigger would refuse to index the damaged record).
        let raw = try DatabaseQueue(path: KioskDatabase.databaseURL(in: directory.appending("data")).path)
        try await raw.write { db in
            db.add(function: DatabaseFunction("kiosk_search_tokens", argumentCount: 1) { _ in "" })
            try db.execute(sql: "UPDATE guests SET sealed = CAST(substr(sealed, 1, 20) || X'FF' || substr(sealed, 22) AS BLOB) WHERE id = 'g-0'")
        }
        try raw.close()
        let database = try station(directory: directory)
        do {
            _ = try database.roster.guest(code: "CODE-0")
            Issue.record("a damaged row must not read back")
        } catch {
            #expect("\(error)".contains("Stored guest data cannot be decrypted: the data is damaged"), "\(error)")
        }
        #expect(try database.roster.guest(code: "CODE-2")?.guest.name == "Ødegård Ås")
        let admitted = try await database.desk.checkIn(CheckInRequest(rawCode: "CODE-2", source: .typed))
        #expect(admitted.decision.kind == .admitted)
    }

    @Test("a rekey keeps the data and the old key stops opening it; the recovery key opens a store whose key is gone")
    func rekeyAndRecovery() async throws {
        let directory = TemporaryDirectory("sealed-rekey")
        defer { directory.remove() }
        let key = directory.appending("keys/station.key")
        let recovery: StorageKey
        do {
            let database = try station(key: key, directory: directory)
            try await database.roster.saveAccessType(AccessType(id: "general", name: "General"))
            try await database.roster.saveGuests(Self.guests())
            let old = try Data(contentsOf: key)
            try database.rekey()
            #expect(try Data(contentsOf: key) != old)
            #expect(try database.storageKeyInfo().storageKeys == 1)
            FileManager.default.createFile(atPath: directory.appending("old.key").path, contents: old, attributes: [.posixPermissions: 0o600])
            recovery = try database.makeRecoveryKey()
        }
        #expect(throws: StoreError.self) { _ = try station(key: directory.appending("old.key"), directory: directory) }
        #expect(try station(key: key, directory: directory).searchIndex.search("王芳").map(\.guest.id) == ["g-3"])

        try FileManager.default.removeItem(at: key)
        #expect(StorageKey(recoveryText: recovery.recoveryText.uppercased()) != nil, "typed back from paper in any case")
        let (recovered, location) = try KioskDatabase.recover(dataDirectory: directory.appending("data"),
                                                             recoveryKey: StorageKey(recoveryText: recovery.recoveryText)!,
                                                             into: .keyFile(key))
        #expect(location == "the key file \(key.path)")
        #expect(Set(try recovered.searchIndex.search("иван").map(\.guest.id)) == ["g-7", "g-9"])
        #expect(try station(key: key, directory: directory).searchIndex.search("müller").count == 2, "the new key file opens it")
    }

    @Test("a sealed backup opens with the store's key and holds the data as it was")
    func sealedBackupsOpen() throws {
        let directory = try StoreFixtures.dataDirectory(version: 7)
        defer { directory.remove() }
        let database = try KioskDatabase.open(dataDirectory: directory.url, key: .keyFile(directory.appending("../\(directory.url.lastPathComponent).key")))
        let sealed = try FileManager.default.contentsOfDirectory(at: directory.appending("backups"), includingPropertiesForKeys: nil)
        #expect(sealed.count == 1)
        let restored = directory.appending("restored.sqlite")
        try database.openBackup(sealed[0], to: restored)
        let names = try DatabaseQueue(path: restored.path).read { db in try String.fetchAll(db, sql: "SELECT name FROM guests ORDER BY id") }
        #expect(names == StoreFixtures.guestNames)
        try? FileManager.default.removeItem(at: directory.appending("../\(directory.url.lastPathComponent).key"))
    }

    /// Moves what the write-ahead log holds into the database file.
    static func settle(_ directory: URL) throws {
        let raw = try DatabaseQueue(path: KioskDatabase.databaseURL(in: directory).path)
        try raw.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        try raw.close()
    }

    /// Every row of every table, read past the station: what "nothing changed" means. (The file's
    /// bytes are not: opening a pool may rewrite its header without changing a row.)
    static func snapshot(_ directory: URL) throws -> [String: [String]] {
        let raw = try DatabaseQueue(path: KioskDatabase.databaseURL(in: directory).path)
        defer { try? raw.close() }
        return try raw.read { db in
            var tables: [String: [String]] = [:]
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
                tables[table] = try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"").map { "\($0)" }.sorted()
            }
            return tables
        }
    }
}

@Suite("Guest data once the event is over")
struct RetentionTests {
    func station(_ directory: TemporaryDirectory) async throws -> KioskDatabase {
        let database = try KioskDatabase.open(dataDirectory: directory.appending("data"), key: .keyFile(directory.appending("station.key")),
                                              backgroundSearchIndex: false)
        try await database.roster.saveAccessType(AccessType(id: "general", name: "General"))
        try await database.roster.saveGuests(EncryptionAtRestTests.guests())
        return database
    }

    @Test("a hub station's event data is purged once the event ended longer ago than the retention, not before")
    func purgedSomeDaysAfterTheEventsEnd() async throws {
        let directory = TemporaryDirectory("retention")
        defer { directory.remove() }
        let database = try await station(directory)
        try await database.setSetting(.hubURL, "http://hub.example:8080")
        let now = Timestamp.now()
        try await database.selectSyncEvent(id: "ev-1", name: "Gala", toleranceWindowMilliseconds: nil,
                                           endsAt: now.adding(milliseconds: -6 * 86_400_000))
        try await database.roster.saveGuests(EncryptionAtRestTests.guests())
        #expect(try await database.purgeIfEventEnded(retention: .seconds(7 * 86_400), now: now) == .kept)
        #expect(try await database.purgeIfEventEnded(retention: .seconds(7 * 86_400), now: now.adding(milliseconds: 2 * 86_400_000)) == .purged(event: "Gala"))
        #expect(try database.searchIndex.search("jose").isEmpty)
        #expect(try database.syncEvent() == nil, "the event is forgotten: the next one is chosen at sign-in")
        // An end at the far edge of time never overflows into the past.
        try await database.selectSyncEvent(id: "ev-2", name: "Far", toleranceWindowMilliseconds: nil, endsAt: Timestamp(milliseconds: .max))
        #expect(try await database.purgeIfEventEnded(retention: .seconds(Int64.max / 2), now: now) == .kept)
    }

    @Test("without a hub nothing is purged until the attendance was exported after the last check-in")
    func theEmbeddedDefaultWaitsForTheAttendanceExport() async throws {
        let directory = TemporaryDirectory("retention-local")
        defer { directory.remove() }
        let database = try await station(directory)
        _ = try await database.desk.checkIn(CheckInRequest(rawCode: "CODE-1", source: .typed))
        #expect(try await database.purgeOnOperatorsWord() == .failure(.attendanceNotExported))
        #expect(try database.searchIndex.search("jose").count == 2, "nothing was removed")
        try await database.setSetting(.attendanceExportedAt, Timestamp.now().adding(milliseconds: 1_000).iso8601)
        #expect(try await database.purgeOnOperatorsWord() == .success(EncryptionAtRestTests.roster.count))
        #expect(try database.searchIndex.search("jose").isEmpty)
        #expect(try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM check_ins") } == 0)
    }
}
