import Foundation
import KioskTestSupport
import Testing

/// `checkin-hub bench` ships in the hub's binary (security review F7): it must never write into
/// an organizer's database, and leaves nothing of its own behind.
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct BenchDatabaseProcessTests {
    let hub = BuiltProducts.executable("checkin-hub")
    /// The smallest run of `bench security`: what it writes is the point, not its figures.
    let small = ["--guesses", "6", "--probes", "1", "--huge-sign-ins", "1", "--half-open", "2", "--idle-timeout", "1"]

    @Test func aDatabaseThatExistsIsRefusedAndLeftAsItWas() throws {
        let directory = TemporaryDirectory("bench-db")
        defer { directory.remove() }
        let db = "sqlite:" + directory.appending("hub.sqlite").path
        #expect(try run(hub, ["event", "create", "--db", db, "--name", "Conf", "--id", "ev"]).status == 0)
        #expect(try run(hub, ["staff", "add", "--db", db, "--email", "olga@x.org", "--name", "Olga", "--role", "organizer"], stdin: "organizer-pass\n").status == 0)
        let before = try run(hub, ["staff", "list", "--db", db]).stdout

        let bench = try run(hub, ["bench", "security", "--db", db] + small, timeout: 300)
        #expect(bench.status != 0)
        #expect(bench.stderr.contains("already exists"), "\(bench.stderr)")
        #expect(try run(hub, ["staff", "list", "--db", db]).stdout == before)
        #expect(try run(hub, ["stats", "--db", db, "--event", "ev", "--json"]).status == 0, "the event is still there")
    }

    @Test func aBenchOnANewFileRemovesItWhenItEnds() throws {
        let directory = TemporaryDirectory("bench-db")
        defer { directory.remove() }
        let file = directory.appending("bench.sqlite").path
        let bench = try run(hub, ["bench", "security", "--db", "sqlite:" + file] + small, timeout: 600)
        #expect(bench.status == 0, "\(bench.stderr)")
        #expect(bench.stdout.contains("wrong passwords"), "\(bench.stdout)")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasPrefix("bench.sqlite") }
        #expect(left.isEmpty, "the bench left \(left) behind")
    }

    @Test func onPostgreSQLAnOrganizersDatabaseIsRefusedAndABenchRemovesItsOwnRows() throws {
        let organizers = try PostgresCluster.shared.get().createDatabase()
        #expect(try run(hub, ["event", "create", "--db", organizers, "--name", "Conf", "--id", "ev"]).status == 0)
        let refused = try run(hub, ["bench", "security", "--db", organizers] + small, timeout: 300)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("not a benchmark's"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("postgres://"), "the URL (and any password in it) is not echoed")

        let own = try PostgresCluster.shared.get().createDatabase()
        let bench = try run(hub, ["bench", "security", "--db", own] + small, timeout: 600)
        #expect(bench.status == 0, "\(bench.stderr)")
        for table in ["events", "staff", "sessions", "guests", "stations"] {
            #expect(try DatabaseSQL.run(own, "SELECT count(*) FROM \(table)") == ["0"], "\(table) keeps the bench's rows")
        }
    }
}
