import Foundation
import KioskTestSupport
import Testing

/// The hub's absolute session lifetime, seen from a real station: the staff are warned before
/// the sign-in ends, and when it ends the door goes on deciding locally, keeping every check-in
/// for the next sign-in.
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking,
       .enabled(if: RealHub.available, "needs the checkin-hub server"))
struct SessionLifetimeTests {
    @Test func aStationIsWarnedBeforeItsSignInEndsAndKeepsCheckInsAfterIt() throws {
        // 90 s of session: far less than the 12-hour warning, so the warning shows at once, and
        // enough for the door's sign-in and first sync on a loaded machine (40 s once was not).
        let hub = try RealHub(guests: 10, serveArguments: ["--session-lifetime-seconds", "90", "--access-token-seconds", "10"])
        defer { hub.remove() }
        let directory = TemporaryDirectory("session-lifetime")
        defer { directory.remove() }
        let door = try HubDoor("Door A", hub: hub, directory: directory)
        let station = try door.start()
        defer { station.kill9() }

        station.wait(limit: 30) { lines in lines.contains { $0.contains(#""event":"health""#) && $0.contains(#""state":"ending_soon""#) } }
        let health = try #require((try door.command(["status"])["run"] as? [String: Any])?["health"] as? [String: Any])
        let session = try #require(health["session"] as? [String: Any])
        #expect(session["state"] as? String == "ending_soon")
        #expect((session["message"] as? String)?.hasPrefix("Sign-in ends at") == true)
        #expect((session["fix"] as? String)?.contains("kiosk signin") == true)

        // After the end: refused at the hub, the door still admits, and the check-in waits.
        station.wait(limit: 150) { lines in lines.contains { $0.contains(#""event":"health""#) && $0.contains(#""state":"signed_out""#) } }
        #expect(station.present("CODE000003")?["decision"] as? String == "admitted")
        let status = try door.command(["status"])
        #expect((status["sync"] as? [String: Any])?["pending"] as? Int ?? 0 >= 1, "\(status)")
    }
}
