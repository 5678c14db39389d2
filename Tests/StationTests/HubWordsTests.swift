import Foundation
import KioskTestSupport
import Testing

/// What the station says about its hub, through a real hub and a real station: "connecting"
/// until the first answer (never "unreachable" while it is up), a hung hub as slow rather than
/// "online (…)", F7 answered at once, and a sign-out that always asks and shows what it waits for.
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking, .enabled(if: RealHub.available, "needs the checkin-hub server"))
struct HubWordsTests {
    /// Whether the console shows `text` within `seconds` (no throw: the test goes on to its next check).
    func shows(_ console: TmuxConsole, _ text: String, seconds: Double = 30) -> Bool {
        (try? console.waitFor(text, seconds: seconds)) != nil
    }

    /// A real hub of five guests and the console (80×24, no printer) of a door signed in to it.
    func doorConsole() throws -> (RealHub, TemporaryDirectory, TmuxConsole) {
        let hub = try RealHub(guests: 5)
        let directory = TemporaryDirectory("hub-words")
        let door = try HubDoor("Door A", hub: hub, directory: directory)
        return (hub, directory, try TmuxConsole(["--data-dir", door.data.path, "--printer", "none"], directory: directory, columns: 80, rows: 24))
    }

    @Test func beforeItsFirstAnswerAStationIsConnectingNotUnreachable() throws {
        let hub = try RealHub(guests: 3)
        defer { hub.remove() }
        let directory = TemporaryDirectory("hub-words")
        defer { directory.remove() }
        let station = try HubDoor("Door A", hub: hub, directory: directory).start()
        defer { station.kill9() }
        station.wait(limit: 60) { $0.contains { $0.contains(#""state":"online""#) } }
        let lines = station.output
        let online = try #require(lines.firstIndex { $0.contains(#""state":"online""#) }, "the hub never showed as online: \(lines)")
        let before = lines[..<online].filter { $0.contains(#""event":"health""#) || $0.contains(#""event":"sync""#) }
        #expect(!before.contains { $0.contains("unreachable") }, "\(before)")
        #expect(before.contains { $0.contains("connecting to the hub") }, "\(before)")
    }

    @Test func aHungHubIsSlowNotOnlineF7AnswersAtOnceAndSigningOutShowsWhatItWaitsFor() throws {
        let (hub, directory, console) = try doorConsole()
        defer { console.stop(); directory.remove(); hub.remove() }
        try console.waitFor("hub online")

        hub.suspend()
        try console.send("F7")
        #expect(shows(console, "Syncing with the hub", seconds: 5), "F7 says at once that it is syncing")
        let slow = (try? console.waitFor("retrying", seconds: 60)) ?? ""
        #expect(slow.contains("hub slow to answer — retrying") && !slow.contains("online ("), "\(slow)")

        try console.scan("CODE000001")
        try console.waitFor("Welcome, Guest 1")
        try console.waitFor("1 pending sync")
        try console.send("F8")
        try console.waitFor("1 change is not uploaded yet.")
        try console.send("F8")
        #expect(shows(console, "Signing out once 1 change is uploaded: 0 of 1 so far"), "the wait says what it waits for")
        hub.resume()
        try console.waitFor("Sign in to the hub", seconds: 120)
        let checkedIn = try hub.stats()["checked_in"] as? Int
        #expect(checkedIn == 1, "the check-in was uploaded before signing out")
    }

    @Test func signingOutWithNothingPendingAsksFirstAndTheDoorKeepsScanning() throws {
        let (hub, directory, console) = try doorConsole()
        defer { console.stop(); directory.remove(); hub.remove() }
        try console.waitFor("0 pending sync")
        try console.send("F8")
        #expect(shows(console, "Nothing waits for the hub"), "F8 asks even with nothing pending")
        try console.send("Escape")
        try console.scan("CODE000002")
        try console.waitFor("Welcome, Guest 2")
        try console.send("F1")
        try console.waitFor("F8 sign out (asks first")
    }
}
