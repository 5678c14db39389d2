import Foundation
import KioskTestSupport
import Testing

/// A station connected to pretix whose connection file cannot be read (damaged, or written by
/// hand) stays a pretix station and says so, through real `kiosk` processes: it never falls back
/// to the demo roster or a hub while its check-ins stop reaching pretix.
@Suite(.hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct PretixLinkUnreadableTests {
    let kiosk = BuiltProducts.executable("kiosk")

    @Test func anUnreadablePretixConnectionIsSaidEverywhereAndNothingFallsBackToADemoOrAHub() throws {
        let directory = TemporaryDirectory("pretix-link-unreadable")
        defer { directory.remove() }
        let data = directory.appending("station").path
        #expect(try run(kiosk, ["status", "--data-dir", data]).status == 0)
        try Data("not a sealed pretix connection".utf8).write(to: URL(fileURLWithPath: data).appendingPathComponent("pretix.json"))

        let status = try run(kiosk, ["status", "--json", "--data-dir", data])
        let unreadable = ((try status.json())["pretix"] as? [String: Any])?["unreadable"] as? String
        #expect(unreadable?.contains("cannot be read") == true && unreadable?.contains("kiosk pretix connect") == true, "\(status.stdout)")
        let words = try run(kiosk, ["status", "--data-dir", data])
        #expect(words.stdout.contains("pretix:    The pretix connection in") && words.stdout.contains("Nothing is sent meanwhile"), "\(words.stdout)")
        let sync = try run(kiosk, ["sync", "--data-dir", data])
        #expect(sync.status != 0 && sync.stderr.contains("This station syncs with pretix"), "\(sync.stderr)")

        let station = try StationProcess(["run", "--headless", "--printer", "none", "--data-dir", data], headless: true)
        station.wait(limit: 60) { lines in lines.contains { $0.contains(#""event":"ready""#) } }
        station.wait(limit: 30) { lines in lines.contains { $0.contains("link_unreadable") } }
        let lines = station.output
        station.kill9()
        #expect(lines.contains { $0.contains("link_unreadable") }, "the health says it: \(lines.suffix(5))")
        let after = try run(kiosk, ["status", "--json", "--data-dir", data]).json()
        #expect((after["roster"] as? [String: Any])?["guests"] as? Int == 0, "no demo roster was imported: \(after)")
    }
}
