import Foundation
import KioskTestSupport
import Testing

/// A door volunteer's morning at a pretix event, on the real console in tmux: the station
/// connected to a real pretix's "Paid only" list admits a paid ticket, refuses an unpaid one with
/// pretix's reason, keeps working while pretix is down (a check-in and its undo queued), and once
/// pretix is back both reach it: the admission recorded, the undone one annulled.
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking,
       .enabled(if: PretixServer.canRun, "pretix tests skipped: \(PretixServer.missing ?? "")"))
struct PretixConsoleTmuxTests {
    @Test func aPretixDayAtTheConsoleAdmitsRefusesWorksOfflineAndCatchesUp() async throws {
        let server = try PretixServer()
        defer { server.remove() }
        let conference = try server.facts.conference
        let list = try #require(conference.checkinLists.first { $0.name == "Paid only" })
        let directory = TemporaryDirectory("pretix-console")
        defer { directory.remove() }
        let data = directory.appending("station").path
        let device = try await server.addDevice(name: "Door 3")
        let connected = try run(BuiltProducts.executable("kiosk"), ["pretix", "connect", "--url", server.url, "--token", device.initializationToken,
                                                                    "--event", "conference", "--list", "\(list.id)", "--data-dir", data])
        try #require(connected.status == 0, "\(connected.stderr)")

        let console = try TmuxConsole(["--data-dir", data, "--printer", "none"], directory: directory, columns: 100, rows: 30)
        defer { console.stop() }
        try console.waitFor("Scan your ticket")
        try console.waitFor("pretix online · Paid only")

        let ada = try conference.position(.paid)
        try console.type(ada.secret)
        try console.send("Enter")
        try console.waitFor("Welcome, Ada Lovelace")
        try console.type(try conference.position(.pending).secret)
        try console.send("Enter")
        try console.waitFor("Ticket not valid: the order is not paid yet — please see staff")

        // pretix goes down: the door goes on, the check-in and its undo wait in order.
        try await eventuallyInPretix(server, list: list.id) { $0.contains { $0.position == ada.id && $0.successful } }
        try server.stop()
        let turing = try #require(conference.positions(.multi).first { $0.attendeeName == "Alan Turing" && $0.addonTo == nil })
        try console.type(turing.secret)
        try console.send("Enter")
        try console.waitFor("Welcome, Alan Turing")
        try console.waitFor("1 pending sync")
        try console.waitFor("pretix unreachable · Paid only — working offline", seconds: 40)
        try console.send("F6")
        try console.waitFor("Check-in undone: Alan Turing")
        try console.waitFor("2 pending sync")

        // Back: both go up, in order; pretix keeps Ada's admission and annuls Alan's.
        try server.resume()
        try console.waitFor("pretix online · Paid only", seconds: 60)
        let screen = try console.waitFor("0 pending sync", seconds: 30)
        #expect(!screen.contains("refused by"), "pretix took both, the annul too: \(screen)")
        let recorded = try await server.checkIns(event: "conference").filter { $0.list == list.id }
        #expect(recorded.filter { $0.position == ada.id && $0.successful }.count == 1)
        #expect(!recorded.contains { $0.position == turing.id && $0.successful }, "the undone check-in was annulled: \(recorded.filter { $0.position == turing.id })")
    }

    func eventuallyInPretix(_ server: PretixServer, list: Int, limit: TimeInterval = 30,
                            _ condition: ([PretixCheckIn]) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(limit)
        while Date() < deadline {
            if condition(try await server.checkIns(event: "conference").filter { $0.list == list }) { return }
            try await Task.sleep(for: .milliseconds(500))
        }
        Issue.record("pretix did not get it within \(limit) s")
    }
}
