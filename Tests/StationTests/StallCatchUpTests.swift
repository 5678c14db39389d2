import Foundation
import KioskTestSupport
import Testing

/// A door that stood still (a suspended box, `SIGSTOP`) while another door admitted a guest:
/// its first scan after it runs again waits for one pull when the hub answers within a second,
/// and is decided on the roster from before otherwise, saying so (audit C11: Door B, stopped
/// 60 s, admitted at once what Door A had admitted meanwhile).
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking, .enabled(if: RealHub.available, "needs the checkin-hub server"))
struct StallCatchUpTests {
    /// Door B stopped, Door A admits the guest, the guest's code waits in B's scanner input, and
    /// B runs again: it reads the code at once.
    /// Returns B's answer and how long after it ran again it came.
    func stopBWhileAAdmits(_ code: String, a: StationProcess, b: StationProcess, hub: RealHub, hang: Bool = false) throws -> (answer: [String: Any], after: Duration) {
        let before = b.decisions(for: code).count
        kill(b.process.processIdentifier, SIGSTOP)
        defer { kill(b.process.processIdentifier, SIGCONT) }
        Thread.sleep(forTimeInterval: 3)
        // A hanging hub hangs before A admits: had it taken A's upload, it could have answered
        // B's held long poll into B's socket while B stood still, and B would know.
        if hang { hub.suspend() }
        let admitted = hang ? 0 : try hub.stats()["checked_in"] as? Int ?? 0
        let atA = try #require(a.present(code), "Door A answered \(code)")
        #expect(atA["decision"] as? String == "admitted", "\(atA)")
        // Readiness, not timing: A's upload has reached the hub.
        let deadline = ContinuousClock.now + .seconds(20)
        while !hang, try hub.stats()["checked_in"] as? Int ?? 0 <= admitted, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.1) }
        b.send(code)
        kill(b.process.processIdentifier, SIGCONT)
        let continued = ContinuousClock.now
        b.wait(limit: 30) { _ in b.decisions(for: code).count > before }
        let after = ContinuousClock.now - continued
        return (try #require(b.decisions(for: code).last, "Door B answered \(code)"), after)
    }

    /// A hub and its two running doors, for `body`; all ended after it.
    func withTwoDoors(_ body: (_ hub: RealHub, _ a: StationProcess, _ b: StationProcess) throws -> Void) throws {
        let hub = try RealHub(guests: 30)
        defer { hub.remove() }
        let directory = TemporaryDirectory("stall")
        defer { directory.remove() }
        let a = try HubDoor("Door A", hub: hub, directory: directory).start()
        defer { a.kill9() }
        let b = try HubDoor("Door B", hub: hub, directory: directory).start()
        defer { b.kill9() }
        Thread.sleep(forTimeInterval: 3)
        try body(hub, a, b)
    }

    @Test func aDoorResumedAfterAStopRefusesWhatTheOtherDoorAdmittedMeanwhile() throws {
        try withTwoDoors { hub, a, b in
            for guest in 1...3 {
                let atB = try stopBWhileAAdmits(String(format: "CODE%06d", guest), a: a, b: b, hub: hub).answer
                // Within the event's window of A's admission: that admission seen again (duplicate).
                #expect(["duplicate", "already_checked_in"].contains(atB["decision"] as? String), "guest \(guest) at Door B: \(atB)")
                #expect((atB["previous"] as? [String: Any])?["station"] as? String == "Door A", "\(atB)")
            }
            #expect(!b.output.contains { $0.contains(#""event":"stall""#) }, "the hub answered: nothing to say")
        }
    }

    @Test func aDoorResumedWhileTheHubHangsDecidesWithinASecondAndSaysSo() throws {
        try withTwoDoors { hub, a, b in
            let code = "CODE000007"
            let (atB, after) = try stopBWhileAAdmits(code, a: a, b: b, hub: hub, hang: true)
            hub.resume()
            // Decided on the roster it had (the hub hung; A's admission reached neither it nor B):
            // admitted, and the operator is told why.
            // The budget is 1 s; the answer is read from B's output, on a machine shared with others.
            #expect(atB["decision"] as? String == "admitted", "\(atB)")
            #expect(after < .seconds(5), "Door B answered \(after) after it ran again")
            let stall = b.output.first { $0.contains(#""event":"stall""#) }
            #expect(stall?.contains("decided on the roster from before") == true, "\(b.output.suffix(5))")
        }
    }
}
