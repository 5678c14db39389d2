import Foundation
import KioskTestSupport
import Testing

/// The station made a pretix device from its own screen: the QR code pretix shows when the
/// organizer connects a device, scanned on the console's sign-in screen.
extension PretixStationTests {
    @Test func aPretixDeviceQRCodeScannedOnTheSignInScreenMakesTheStationThatDeviceOnTheListPretixSuggests() async throws {
        let server = try Self.server.get()
        let conference = try server.facts.conference
        let general = try #require(conference.items.first { $0.name == "General admission" })
        let guest = try await server.placeOrder(event: "conference", item: general.id, attendee: "Quinn Quickstart")
        // One event with three lists: nobody is there to choose, so pretix's suggestion is followed.
        let device = try await server.addDevice(name: "Door QR", events: ["conference"])
        let handshake = #"{"handshake_version":1,"url":"\#(server.url)","token":"\#(device.initializationToken)"}"#
        let directory = TemporaryDirectory("pretix-station-handshake")
        defer { directory.remove() }
        let data = directory.appending("station").path
        let console = try TmuxConsole(["--data-dir", data, "--printer", "none"], directory: directory, columns: 100, rows: 30)
        defer { console.stop() }

        try console.waitFor("Or scan the pretix device QR code")
        // Read twice, as a scanner held too long or a camera does: taken once (its token works once).
        try console.scan(handshake)
        try console.scan(handshake)
        try console.waitFor("guests on this station — ready to scan", seconds: 60)
        let screen = try console.waitFor("pretix online")
        #expect(!screen.contains(device.initializationToken), "the token is never shown")
        #expect(!screen.contains("did not connect"), "\(screen)")
        try console.scan(guest.secret)
        try console.waitFor("Welcome, Quinn Quickstart")
        try console.waitFor("0 pending sync", seconds: 30)

        // In pretix: made by this device, on the list pretix suggested for it.
        let recorded = try await server.checkIns(event: "conference", position: guest.id).filter(\.successful)
        #expect(recorded.count == 1 && recorded.first?.deviceID == device.id, "\(recorded)")
        #expect(conference.checkinLists.map(\.id).contains(recorded.first?.list ?? -1))
        // A second device QR code is not taken by a connected station, and is never a ticket.
        try console.scan(handshake)
        try console.waitFor("already a pretix device")
    }
}
