import Foundation
import KioskTestSupport
import Testing

/// The event picker at 8:30 on day 2, on the real console in tmux against a real hub: "Today"
/// starts on the event happening now, never on yesterday's, which is marked as ended.
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking, .enabled(if: RealHub.available, "needs the checkin-hub server"))
struct EventPickerTmuxTests {
    @Test func todayPreselectsTheEventOnNowAndMarksYesterdaysAsEnded() throws {
        let hub = try RealHub(guests: 3)
        defer { hub.remove() }
        let iso = ISO8601DateFormatter()
        func at(hours: Double) -> String { iso.string(from: Date().addingTimeInterval(hours * 3600)) }
        _ = try hub.addEvent(name: "Day 1 (yesterday)", roster: RealHub.roster(2, namePrefix: "Yesterday"),
                             arguments: ["--starts", at(hours: -27), "--ends", at(hours: -3)])
        _ = try hub.addEvent(name: "Summit Day", roster: RealHub.roster(2, namePrefix: "Summit"),
                             arguments: ["--starts", at(hours: -1), "--ends", at(hours: 8)])
        _ = try hub.addEvent(name: "Gala Tomorrow", roster: RealHub.roster(2, namePrefix: "Gala"),
                             arguments: ["--starts", at(hours: 20), "--ends", at(hours: 26)])
        let directory = TemporaryDirectory("event-picker")
        defer { directory.remove() }
        let console = try TmuxConsole(["--data-dir", directory.appending("data").path, "--printer", "none"], directory: directory,
                                      columns: 80, rows: 24)
        defer { console.stop() }
        try console.waitFor("Sign in to the hub")
        try console.signIn(to: hub, password: hub.password)

        let screen = try console.waitFor("Gala Tomorrow")
        #expect(screen.contains("▶ Summit Day"), "the event on now is chosen: \(screen)")
        let yesterday = screen.split(separator: "\n").first { $0.contains("Day 1 (yesterday)") } ?? ""
        #expect(yesterday.contains("ended"), "\(yesterday)")
        #expect(!yesterday.contains("▶"))
        try console.send("Enter")
        try console.waitFor("Summit Day: 2 guests on this station — ready to scan", seconds: 60)
    }
}
