import Foundation
import KioskTestSupport
import Testing

/// Entries, exits and re-entries recorded on a real station (`kiosk checkin`, `--exit`), synced
/// to a real hub, and the hub's "inside" count after them.
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking,
       .enabled(if: RealHub.available, "needs the checkin-hub server"))
struct ExitsThroughTheHubTests {
    @Test func exitThenReEntryFollowsTheAccessTypeAndTheHubCountsWhoIsInside() throws {
        let hub = try RealHub(guests: 1)
        defer { hub.remove() }
        let event = try hub.addEvent(name: "Doors", roster: """
            code,name,email,ticket type
            DAY1,Dana Day,dana@example.org,Day pass
            STAFF1,Sam Staff,sam@example.org,Staff
            DAY2,Gus Ghost,gus@example.org,Day pass

            """)
        let reentry = try run(RealHub.executable, ["access-type", "add", "--db", hub.database, "--event", event, "--name", "Staff", "--reentry"])
        #expect(reentry.status == 0, "\(reentry.stderr)")
        let directory = TemporaryDirectory("exits")
        defer { directory.remove() }
        let door = try HubDoor("Main door", hub: hub, event: event, directory: directory)

        // A day pass is single entry: in, out, and refused on the way back in.
        #expect(try door.command(["checkin", "DAY1"])["decision"] as? String == "admitted")
        let out = try door.command(["checkin", "DAY1", "--exit"])
        #expect(out["decision"] as? String == "admitted" && out["direction"] as? String == "exit")
        #expect(out["flag"] is NSNull || out["flag"] == nil, "a guest who was inside leaves unflagged")
        #expect(try door.command(["checkin", "DAY1"])["decision"] as? String == "already_checked_in")

        // Staff may come back.
        #expect(try door.command(["checkin", "STAFF1"])["decision"] as? String == "admitted")
        #expect(try door.command(["checkin", "STAFF1", "--exit"])["decision"] as? String == "admitted")
        #expect(try door.command(["checkin", "STAFF1"])["decision"] as? String == "admitted")

        // Someone never let in leaves: recorded, and flagged for the organizer.
        let ghost = try door.command(["checkin", "DAY2", "--exit"])
        #expect(ghost["decision"] as? String == "admitted")
        #expect(ghost["flag"] as? String == "exit_without_entry")

        let sync = try run(door.kiosk, ["sync", "--data-dir", door.data.path])
        #expect(sync.status == 0, "\(sync.stderr)")
        let stats = try hub.stats(event: event)
        #expect(stats["inside"] as? Int == 1, "only Sam is inside: \(stats)")
        #expect(stats["checked_in"] as? Int == 2, "Dana and Sam were admitted: \(stats)")
        #expect(stats["flagged_exits"] as? Int == 1, "Gus's exit: \(stats)")
    }
}
