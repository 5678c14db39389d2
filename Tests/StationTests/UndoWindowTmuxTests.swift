import Foundation
import KioskTestSupport
import Testing

/// F6 on the real console in tmux at a door synced to a real hub whose event takes a station's
/// undo for 40 s: within the window the check-in is undone here and at the hub; beyond it the
/// station refuses in words and the guest stays checked in here and at the hub (the hub would
/// refuse the undo, so "Check-in undone" would leave the doors disagreeing about who is inside).
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking, .enabled(if: RealHub.available, "needs the checkin-hub server"))
struct UndoWindowTmuxTests {
    @Test func undoBeyondTheHubsUndoWindowIsRefusedInWordsAndTheGuestStaysCheckedIn() throws {
        let hub = try RealHub(guests: 1)
        defer { hub.remove() }
        let roster = "code,name,email\nUNDO-0001,Undo One,one@example.org\nUNDO-0002,Undo Two,two@example.org\n"
        let event = try hub.addEvent(name: "Undo Day", roster: roster, arguments: ["--undo-seconds", "40"])
        let directory = TemporaryDirectory("undo-window")
        defer { directory.remove() }
        let door = try HubDoor("Door A", hub: hub, event: event, directory: directory)
        let console = try TmuxConsole(["--data-dir", door.data.path, "--printer", "none"], directory: directory, columns: 120, rows: 30)
        defer { console.stop() }
        try console.waitFor("Scan your ticket")

        // Within the window: undone here, and the hub agrees.
        try console.type("UNDO-0001")
        try console.send("Enter")
        try console.waitFor("Welcome, Undo One")
        let checkedInAtHub = { (try? hub.stats(event: event)["checked_in"] as? Int) ?? -1 }
        eventually(limit: 30) { checkedInAtHub() == 1 }
        try #require(checkedInAtHub() == 1, "the check-in did not reach the hub")
        try console.send("F6")
        try console.waitFor("Check-in undone: Undo One")
        eventually(limit: 30) { checkedInAtHub() == 0 }
        #expect(checkedInAtHub() == 0, "the hub did not take the undo within its window")

        // Beyond it: refused in words, nothing changed here or at the hub.
        try console.type("UNDO-0002")
        try console.send("Enter")
        try console.waitFor("Welcome, Undo Two")
        let scanned = Date()
        eventually(limit: 30) { checkedInAtHub() == 1 }
        try #require(checkedInAtHub() == 1, "the check-in did not reach the hub")
        // 40 s: long enough for the part above on a loaded machine (its undo must come within the
        // window less the station's margin of 4 s).
        Thread.sleep(forTimeInterval: max(0, 41 - Date().timeIntervalSince(scanned)))
        try console.send("F6")
        let screen = try console.waitFor("Not undone")
        #expect(screen.contains("too late to undo here") && screen.contains("40 s"), "\(screen)")
        #expect(!screen.contains("Check-in undone: Undo Two"), "\(screen)")
        let found = try door.command(["search", "Undo Two"])
        let rows = found["results"] as? [[String: Any]] ?? []
        #expect(rows.first?["checked_in"] as? Bool == true, "\(rows)")
        Thread.sleep(forTimeInterval: 2)
        #expect(checkedInAtHub() == 1)
    }
}
