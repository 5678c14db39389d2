import Foundation
import KioskTestSupport
import Testing

/// Two doors of one event, each a real `kiosk run` signed in to a real hub: a ticket admitted at
/// Door A and shown at Door B two seconds later is refused there, naming Door A. With the
/// interval pull alone (5 s push, 5 s pull), B admitted it again in 3 of 4 tries.
@Suite(.serialized, .timeLimit(.minutes(6)), .tags(.endToEnd), .endToEnd, .blocking,
       .enabled(if: RealHub.available, "needs the checkin-hub server"))
struct DoorsAgreeTests {
    /// 20 guests in a row through both doors, each shown at B two seconds after A admitted them.
    /// Returns what B answered for each guest it did not refuse naming Door A.
    func guestsAdmittedAtAThenShownAtB(_ a: StationProcess, _ b: StationProcess) throws -> [String] {
        // Readiness, not timing: B's follow request is held by the hub a moment after it starts.
        Thread.sleep(forTimeInterval: 3)
        var misses: [String] = []
        for guest in 1...20 {
            let code = String(format: "CODE%06d", guest)
            let atA = try #require(a.present(code), "Door A answered \(code)")
            #expect(atA["decision"] as? String == "admitted")
            Thread.sleep(forTimeInterval: 2)
            let atB = try #require(b.present(code), "Door B answered \(code)")
            let decision = atB["decision"] as? String
            let previous = atB["previous"] as? [String: Any]
            if !(decision == "duplicate" || decision == "already_checked_in") || previous?["station"] as? String != "Door A" {
                misses.append("guest \(guest): \(decision ?? "no answer") by \(previous?["station"] as? String ?? "nobody")")
            }
        }
        return misses
    }

    @Test func withOneHubADoorRefusesWhatTheOtherAdmittedTwoSecondsEarlier() throws {
        let hub = try RealHub(guests: 30)
        defer { hub.remove() }
        let directory = TemporaryDirectory("doors")
        defer { directory.remove() }
        let a = try HubDoor("Door A", hub: hub, directory: directory).start()
        defer { a.kill9() }
        let b = try HubDoor("Door B", hub: hub, directory: directory).start()
        defer { b.kill9() }
        let misses = try guestsAdmittedAtAThenShownAtB(a, b)
        #expect(misses.isEmpty, "Door B admitted what Door A had: \(misses)")
    }

    @Test(.enabled(if: (try? PostgresCluster.bin("initdb")) != nil, "needs Debian's postgresql package"))
    func withTwoHubsOnOnePostgreSQLEachDoorOnItsOwnHubRefusesWhatTheOtherAdmitted() throws {
        let database = try PostgresCluster.shared.get().createDatabase()
        let hubA = try RealHub(guests: 30, database: database)
        defer { hubA.remove() }
        let hubB = try RealHub(sharing: hubA)
        defer { hubB.remove() }
        let directory = TemporaryDirectory("doors")
        defer { directory.remove() }
        let a = try HubDoor("Door A", hub: hubA, directory: directory).start()
        defer { a.kill9() }
        let b = try HubDoor("Door B", hub: hubA, url: hubB.url, directory: directory).start()
        defer { b.kill9() }
        let misses = try guestsAdmittedAtAThenShownAtB(a, b)
        #expect(misses.isEmpty, "Door B admitted what Door A had: \(misses)")
    }

    /// Seconds of CPU `pid` has used (user and system), from `/proc`.
    static func cpuSeconds(_ pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command (in parentheses, which may hold spaces): utime is the 14th
        // field of the line, stime the 15th.
        let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
        return Double((Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// While it follows the hub, the interval loop only uploads; it once never waited between
    /// rounds and kept a CPU core busy per station, starving the hub and the database on the
    /// same machine (a door then learned of the other's admissions seconds late).
    @Test func anIdleStationFollowingItsHubLeavesTheProcessorsAlone() throws {
        let hub = try RealHub(guests: 5)
        defer { hub.remove() }
        let directory = TemporaryDirectory("doors")
        defer { directory.remove() }
        let door = try HubDoor("Door A", hub: hub, directory: directory).start()
        defer { door.kill9() }
        #expect(door.present("CODE000001")?["decision"] as? String == "admitted")
        Thread.sleep(forTimeInterval: 2)
        let before = try Self.cpuSeconds(door.process.processIdentifier)
        Thread.sleep(forTimeInterval: 5)
        let used = try Self.cpuSeconds(door.process.processIdentifier) - before
        // Idle, it uses a few hundredths of a second in 5 s; spinning, about 4.5 s.
        #expect(used < 1, "an idle station used \(used) s of CPU in 5 s")
    }
}
