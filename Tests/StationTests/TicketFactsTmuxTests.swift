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
        let data = try ExportFixtures.importedPretixStation(in: directory)

        let console = try TmuxConsole(["--printer", "none", "--data-dir", data], directory: directory)
        defer { console.stop() }
        try console.waitFor("Scan your ticket")
        try console.type("SEC-VIP")
        try console.send("Enter")
        let welcome = try console.waitFor("Staff: Hand out the VIP lanyard")
        #expect(welcome.contains("Welcome, Vera Vip"))
        try console.type("SEC-LATER")
        try console.send("Enter")
        let later = try console.waitFor("Ticket not valid at this time")
        // When it becomes valid, so the staff can tell the attendee.
        #expect(later.contains("valid from") && later.contains("2099"), "\(later)")

        try console.send("F2")
        try console.waitFor("Search:")
        try console.type("fam01")
        try console.waitFor("Ctrl-O whole order FAM01")
        try console.send("C-o")
        try console.waitFor("Order FAM01: all 4 may go in")
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

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime"), "needs Debian's faketime"))
    func aWholeOrderWithOneMemberAlreadyInShowsEveryMemberAndTheRefusedOneOnThePanel() throws {
        let directory = TemporaryDirectory("facts-console")
        defer { directory.remove() }
        let data = try ExportFixtures.importedPretixStation(in: directory)
        try ExportFixtures.checkedInTenMinutesAgo("sec-carla", data: data)

        let console = try TmuxConsole(["--printer", "none", "--data-dir", data], directory: directory, columns: 80, rows: 24)
        defer { console.stop() }
        try console.waitFor("Scan your ticket")
        try console.send("F2")
        try console.waitFor("Search:")
        try console.type("fam01")
        try console.waitFor("Ctrl-O whole order FAM01")
        try console.send("C-o")
        let screen = try console.waitFor("Order FAM01: 3 of 4 may go in")
        #expect(screen.contains("✗ Carla Lima — Already checked in"), "the refused member is on the panel: \(screen)")
        for name in ["Ana Lima", "Bruno Lima", "Dario Lima"] { #expect(screen.contains("✓ \(name)"), "\(name): \(screen)") }
    }
}
