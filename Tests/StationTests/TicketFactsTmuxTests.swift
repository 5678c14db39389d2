import Foundation
import KioskTestSupport
import Testing

/// The door staff's view of what the export said, in the real console in tmux: the note on an
/// admission, a ticket refused outside its own window, and a whole order from the search list.
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct TicketFactsTmuxTests {
    let kiosk = BuiltProducts.executable("kiosk")

    @Test func theNoteShowsOnTheAdmissionAndCtrlOChecksInTheWholeOrderOneResultEach() throws {
        let directory = TemporaryDirectory("facts-console")
        defer { directory.remove() }
        let data = directory.appending("data").path
        let csv = directory.appending("pretix.csv")
        try ExportFixtures.pretix(.semicolon).write(to: csv)
        #expect(try run(kiosk, ["import", csv.path, "--time-zone", "Europe/Berlin", "--data-dir", data]).status == 0)

        let console = try TmuxConsole(["--printer", "none", "--data-dir", data], directory: directory)
        defer { console.stop() }
        try console.waitFor("Scan your ticket")
        try console.type("SEC-VIP")
        try console.send("Enter")
        let welcome = try console.waitFor("Staff: Hand out the VIP lanyard")
        #expect(welcome.contains("Welcome, Vera Vip"))
        try console.type("SEC-LATER")
        try console.send("Enter")
        try console.waitFor("Ticket not valid at this time")

        try console.send("F2")
        try console.waitFor("Search:")
        try console.type("fam01")
        try console.waitFor("Ctrl-O whole order FAM01")
        try console.send("C-o")
        try console.waitFor("Welcome, ")
        // Each ticket is decided and recorded on its own: wait until all four are in.
        var rows: [[String: Any]] = []
        for _ in 0..<60 {
            let found = try run(kiosk, ["search", "fam01", "--data-dir", data, "--json"])
            rows = (try? found.json()["results"] as? [[String: Any]]) ?? []
            if rows.count == 4 && rows.allSatisfy({ $0["checked_in"] as? Bool == true }) { break }
            usleep(250_000)
        }
        #expect(rows.count == 4 && rows.allSatisfy { $0["checked_in"] as? Bool == true }, "\(rows)")
    }
}
