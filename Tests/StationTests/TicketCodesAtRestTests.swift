import Foundation
import KioskTestSupport
import Testing

/// A station synced from a real hub, used at the door (uploaded, pending and headless
/// check-ins), then read as by someone holding its disk: no ticket code is anywhere in its data
/// directory. The hub knows imported guests by their codes; the station's guest ids, check-in
/// keys and queued uploads listed every code in clear, and a lost box could mint a valid ticket
/// for everyone not yet arrived.
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking, .enabled(if: RealHub.available, "needs the checkin-hub server"))
struct TicketCodesAtRestTests {
    let kiosk = BuiltProducts.executable("kiosk")

    @Test func aStationSyncedFromAHubHoldsNoTicketCodeInAnyFileAndStillAdmitsByCode() throws {
        let guests = 40
        let hub = try RealHub(guests: guests)
        defer { hub.remove() }
        let directory = TemporaryDirectory("codes-at-rest")
        defer { directory.remove() }
        let door = try HubDoor("Door A", hub: hub, directory: directory)
        let data = door.data.path

        // Uploaded, then queued while the hub is away, then at a running station.
        #expect(try run(kiosk, ["checkin", "CODE000001", "--data-dir", data]).status == 0)
        #expect(try run(kiosk, ["sync", "--data-dir", data]).status == 0)
        hub.stop()
        #expect(try run(kiosk, ["checkin", "code000002", "--data-dir", data]).status == 0)
        let station = try door.start()
        #expect(station.present("CODE000003")?["decision"] as? String == "admitted")
        #expect(["duplicate", "already_checked_in"].contains(station.present("CODE000001")?["decision"] as? String))
        station.kill9()

        let codes = (0..<guests).map { String(format: "CODE%06d", $0) }
        let leaks = PlaintextLeaks.find(codes, under: door.data)
        #expect(leaks.isEmpty, "\(leaks.count) ticket codes in clear: \(leaks.prefix(12))")

        // Both queued check-ins reach the hub once it is back, under the guests it knows.
        try hub.start()
        let synced = try run(kiosk, ["sync", "--json", "--data-dir", data])
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(try hub.stats()["checked_in"] as? Int == 3)
        #expect(PlaintextLeaks.find(codes, under: door.data).isEmpty)
    }
}
