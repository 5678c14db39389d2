import Foundation
import KioskTestSupport
import Testing

/// A queue of walk-ins registered with Enter, Enter, Enter on the real console in tmux, at a door
/// whose hub event has a re-entry crew type that sorts first: they get the event's general type.
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking, .enabled(if: RealHub.available, "needs the checkin-hub server"))
struct WalkInDefaultTmuxTests {
    @Test func enterEnterEnterRegistersAWalkInUnderTheGeneralTypeNotTheCrewPassThatSortsFirst() throws {
        let hub = try RealHub(guests: 1)
        defer { hub.remove() }
        let roster = "code,name,email,access_type\nCREW-1,Carla Crew,carla@example.org,Crew\n"
            + (1...3).map { "GEN-\($0),Guest \($0),g\($0)@example.org,General" }.joined(separator: "\n") + "\n"
        let event = try hub.addEvent(name: "Door Day", roster: roster)
        let crew = try run(RealHub.executable, ["access-type", "add", "--db", hub.database, "--event", event, "--name", "Crew", "--reentry"])
        #expect(crew.status == 0, "\(crew.stderr)")
        let directory = TemporaryDirectory("walk-in-default")
        defer { directory.remove() }
        let door = try HubDoor("Door A", hub: hub, event: event, directory: directory)

        let console = try TmuxConsole(["--data-dir", door.data.path, "--printer", "none"], directory: directory, columns: 80, rows: 24)
        defer { console.stop() }
        try console.waitFor("Scan your ticket")
        try console.send("F4")
        var screen = try console.waitFor("Walk-in registration")
        #expect(screen.contains("◀ General ▶"), "\(screen)")
        try console.type("Walter Walkin")
        for _ in 0..<4 {
            try console.send("Enter")
            Thread.sleep(forTimeInterval: 0.3)
        }
        screen = try console.waitFor("Welcome, Walter Walkin")
        #expect(screen.contains("General") && !screen.contains("Crew"), "\(screen)")
        let found = try door.command(["search", "Walter"])
        let rows = found["results"] as? [[String: Any]] ?? []
        #expect(rows.first?["access_type"] as? String == "General", "\(rows)")
    }
}
