import ArgumentParser
import CheckInCore
import Foundation
import GRDB
import KioskStore
import RosterCSV

/// `kiosk bench store`: roster import, check-in, search, bulk insert and fetch on a generated
/// roster, with `sqlite3 .import` of the same CSV as the baseline.
struct BenchStoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "store", abstract: "Benchmark the station's storage.")

    @Option(help: "Guests in the generated roster.")
    var guests = 100_000

    @Option(help: "Check-ins to time.")
    var checkins = 10_000

    @Option(help: "Searches to time.")
    var searches = 1_000

    @Flag(help: "Print one JSON document.")
    var json = false

    func run() async throws {
        CommandOutput.bootstrapLogging()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("roster.csv")
        try BenchRoster.csv(guests: guests).write(to: csv, atomically: true, encoding: .utf8)

        let importStart = ContinuousClock.now
        let data = directory.appendingPathComponent("data")
        let database = try KioskDatabase.open(dataDirectory: data, key: .besideThrowawayStore(data))
        let parseStart = ContinuousClock.now
        let parsed = try RosterCSVParser.parse(contentsOf: csv)
        let parseSeconds = (ContinuousClock.now - parseStart).seconds
        let foldStart = ContinuousClock.now
        var foldedLength = 0
        for row in parsed.rows.prefix(20_000) { foldedLength += SearchText.fold(row.name + " " + row.email + " " + row.company).utf8.count }
        let foldMicroseconds = (ContinuousClock.now - foldStart).milliseconds * 1000 / Double(min(20_000, max(parsed.rows.count, 1)))
        let summary = try await database.roster.importRoster(parsed)
        let storedSeconds = (ContinuousClock.now - importStart).seconds
        try await database.searchIndex.finishSearchIndex()
        let importSeconds = (ContinuousClock.now - importStart).seconds
        let rssAfterImport = peakRSSMegabytes()
        let baseline = sqliteImportSeconds(csv: csv, directory: directory)

        var generator = SeededGenerator(seed: 42)
        var checkInMs: [Double] = []
        let codes = (0..<guests).shuffled(using: &generator).prefix(checkins)
        for index in codes {
            let start = ContinuousClock.now
            let result = try await database.desk.checkIn(CheckInRequest(rawCode: BenchRoster.code(index), source: .camera))
            checkInMs.append((ContinuousClock.now - start).milliseconds)
            precondition(result.decision == .admitted)
        }

        var searchMs: [Double] = []
        var found = 0
        for _ in 0..<searches {
            let query = BenchRoster.query(Int.random(in: 0..<guests, using: &generator), using: &generator)
            let start = ContinuousClock.now
            found += try database.searchIndex.search(query).isEmpty ? 0 : 1
            searchMs.append((ContinuousClock.now - start).milliseconds)
        }

        let insertStart = ContinuousClock.now
        try await database.roster.saveGuests((0..<1_000).map {
            Guest(id: "bulk-\($0)", code: TicketCode(stored: "BULK\($0)"), name: "Bulk Guest \($0)", email: "bulk\($0)@example.com",
                  company: "Bulk Co", accessTypeID: "general")
        })
        let insertMs = (ContinuousClock.now - insertStart).milliseconds
        let fetchStart = ContinuousClock.now
        let fetched = try database.read { db in try Row.fetchAll(db, sql: "SELECT * FROM guests WHERE id LIKE 'bulk-%' LIMIT 1000").count }
        let fetchMs = (ContinuousClock.now - fetchStart).milliseconds
        precondition(fetched == 1_000)

        let figures: JSONValue = [
            "guests": .int(guests),
            "import": ["seconds": .double(importSeconds), "stored_seconds": .double(storedSeconds), "parse_seconds": .double(parseSeconds), "fold_us_per_guest": .double(foldMicroseconds), "imported": .int(summary.imported), "peak_rss_mb": .double(rssAfterImport),
                       "baseline_sqlite3_import_seconds": baseline.map(JSONValue.double) ?? .null,
                       "ratio_to_baseline": baseline.map { .double(importSeconds / $0) } ?? .null],
            "checkin_ms": Percentiles(checkInMs).json(["p50", "p95", "p99"]),
            "search_ms": Percentiles(searchMs).json(["p50", "p95", "p99"]),
            "search_hit_rate": .double(Double(found) / Double(max(searches, 1))),
            "insert_1000_ms": .double(insertMs),
            "fetch_1000_ms": .double(fetchMs),
            "peak_rss_mb": .double(peakRSSMegabytes()),
        ]
        if json {
            CommandOutput.printJSON(figures)
        } else {
            print("import \(guests) guests: \(String(format: "%.2f", importSeconds)) s with the search index, \(String(format: "%.2f", storedSeconds)) s to stored (sqlite3 .import: \(baseline.map { String(format: "%.2f s", $0) } ?? "n/a")), peak RSS \(String(format: "%.0f", rssAfterImport)) MB; parse \(String(format: "%.2f", parseSeconds)) s, fold \(String(format: "%.1f", foldMicroseconds)) µs/guest [\(foldedLength)]")
            print("check-in ms: \(Percentiles(checkInMs).text)")
            print("search ms:   \(Percentiles(searchMs).text)")
            print("1000 inserts: \(String(format: "%.1f", insertMs)) ms, 1000 fetches: \(String(format: "%.1f", fetchMs)) ms")
        }
    }

    /// `sqlite3 DB '.import --csv roster.csv guests'` on the same file, or nil without sqlite3.
    func sqliteImportSeconds(csv: URL, directory: URL) -> Double? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [directory.appendingPathComponent("baseline.sqlite").path, "PRAGMA journal_mode=WAL;", "PRAGMA synchronous=FULL;", ".import --csv \(csv.path) guests"]
        process.standardOutput = FileHandle.nullDevice
        let start = ContinuousClock.now
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        return (ContinuousClock.now - start).seconds
    }
}

/// A deterministic roster with names in several scripts.
enum BenchRoster {
    static let first = ["José", "Ødegård", "Anna", "Łukasz", "Zoë", "Dmitri", "Νίκος", "Ahmed", "Siobhán", "François", "Jürgen", "María"]
    static let last = ["Müller", "Ås", "Nowak", "O'Brien", "Ivanov", "Papadopoulos", "Al-Farsi", "Ní Bhriain", "Dupont", "Schäfer", "García", "Smith"]
    static let cjk = ["王小明", "李娜", "張偉", "佐藤花子", "김민준"]
    static let companies = ["ACME", "Fjord AS", "Globex", "Initech", "北京科技", "Umbrella", "Stark", "Wayne"]

    static func code(_ index: Int) -> String { "T\(String(index, radix: 36).uppercased())X\(index % 97)" }

    static func name(_ index: Int) -> String {
        index % 10 == 7 ? cjk[index % cjk.count] + String(index) : "\(first[index % first.count]) \(last[(index / first.count) % last.count]) \(index)"
    }

    static func csv(guests: Int) -> String {
        var text = "name,email,company,code,access_type\n"
        text.reserveCapacity(guests * 70)
        for index in 0..<guests {
            text += "\"\(name(index))\",guest\(index)@example.com,\(companies[index % companies.count]),\(code(index)),\(index % 5 == 0 ? "VIP" : "General")\n"
        }
        return text
    }

    /// What door staff type: the start of a last name or a first name, without accents.
    static func query(_ index: Int, using generator: inout SeededGenerator) -> String {
        let words = SearchText.fold(name(index)).split(separator: " ")
        let word = words[Int.random(in: 0..<words.count, using: &generator)]
        return String(word.prefix(Int.random(in: 3...6, using: &generator)))
    }
}

struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Percentiles of a sample of durations.
struct Percentiles {
    let sorted: [Double]
    init(_ values: [Double]) { sorted = values.sorted() }
    func value(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1 < 0 ? 0 : Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1)]
    }
    func json(_ names: [String]) -> JSONValue {
        .object(Dictionary(uniqueKeysWithValues: names.map { ($0, JSONValue.double(value(Double($0.dropFirst())!))) }))
    }
    var text: String { String(format: "p50 %.2f  p95 %.2f  p99 %.2f", value(50), value(95), value(99)) }
}

func peakRSSMegabytes() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

extension Duration {
    var milliseconds: Double { seconds * 1000 }
}
