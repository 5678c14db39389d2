import Foundation
import KioskTestSupport
import Testing

/// The station made a pretix device from its own screen: the QR code pretix shows when the
/// organizer connects a device, scanned on the console's sign-in screen, then this door's list
/// chosen there.
extension PretixStationTests {
    @Test func aPretixDeviceQRCodeScannedOnTheSignInScreenMakesTheStationThatDeviceOnTheListChosenThere() async throws {
        let server = try Self.server.get()
        let conference = try server.facts.conference
        let general = try #require(conference.items.first { $0.name == "General admission" })
        let guest = try await server.placeOrder(event: "conference", item: general.id, attendee: "Quinn Quickstart")
        // One event with three lists: the operator chooses this door's, pretix's suggestion chosen first.
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
        let picker = try console.waitFor("Choose this door's check-in list", seconds: 60)
        #expect(!picker.contains(device.initializationToken), "the token is never shown")
        // Every list of the device's event, one row each, pretix's suggestion marked.
        let names = conference.checkinLists.map { $0.name + " · " }
        let rows = picker.split(separator: "\n").map(String.init).filter { row in names.contains { name in row.contains(name) } }
        #expect(rows.count == conference.checkinLists.count, "\(picker)")
        let suggested = try #require(rows.firstIndex { $0.contains("▶") }, "\(picker)")
        // Another list than the suggestion, one that admits a general admission ticket.
        let target = try #require(rows.indices.first { index in
            index != suggested && !rows[index].contains("VIP lounge")
        })
        let chosen = try #require(conference.checkinLists.first { rows[target].contains($0.name + " · ") })
        let steps: Int = target > suggested ? target - suggested : suggested - target
        for _ in 0..<steps { try console.send(target > suggested ? "Down" : "Up") }
        _ = try console.waitForScreen(expected: "▶ on \(chosen.name)", seconds: 10) { screen in
            screen.split(separator: "\n").contains { $0.contains("▶ " + chosen.name + " · ") }
        }
        try console.send("Enter")
        try console.waitFor("guests on this station — ready to scan", seconds: 60)
        let screen = try console.waitFor("pretix online")
        #expect(!screen.contains("did not connect"), "\(screen)")
        try console.scan(guest.secret)
        try console.waitFor("Welcome, Quinn Quickstart")
        try console.waitFor("0 pending sync", seconds: 30)

        // In pretix: made by this device, on the list chosen at the door.
        let recorded = try await server.checkIns(event: "conference", position: guest.id).filter(\.successful)
        #expect(recorded.count == 1 && recorded.first?.deviceID == device.id, "\(recorded)")
        #expect(recorded.first?.list == chosen.id, "on the list chosen on the console: \(recorded)")
        // A second device QR code is not taken by a connected station, and is never a ticket.
        try console.scan(handshake)
        try console.waitFor("already a pretix device")
    }

    @Test func aHeadlessStationGivenAPretixDeviceQRCodeTakesTheListPretixSuggestsAndSaysSoLineByLine() async throws {
        let server = try Self.server.get()
        // One event with three lists and nobody at a screen: pretix's suggestion is followed, as its own unattended devices do.
        let device = try await server.addDevice(name: "Door QR headless", events: ["conference"])
        let handshake = #"{"handshake_version":1,"url":"\#(server.url)","token":"\#(device.initializationToken)"}"#
        let directory = TemporaryDirectory("pretix-station-handshake-headless")
        defer { directory.remove() }
        let data = directory.appending("station").path, out = directory.appending("out.jsonl").path
        // The code on stdin, then stdin held open until the station says the roster is here (or 120 s).
        let script = #"{ printf '%s\n' "$2"; for i in $(seq 240); do grep -q roster_ready "$3" 2>/dev/null && break; sleep 0.5; done; } "#
            + #"| "$0" run --headless --no-demo --printer none --data-dir "$1" > "$3""#
        let result = try run(URL(fileURLWithPath: "/bin/sh"), ["-c", script, kiosk.path, data, handshake, out], timeout: 180)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let events = lines.compactMap { $0["event"] as? String }
        #expect(events.contains("pretix_connecting") && events.contains("roster_ready"), "\(events)")
        #expect(!events.contains("decision"), "a device QR code is never checked in as a ticket: \(events)")
        #expect(!lines.contains { "\($0)".contains(device.initializationToken) }, "the token is never printed")
        let status = try run(kiosk, ["status", "--json", "--data-dir", data]).json()
        let pretix = try #require(status["pretix"] as? [String: Any], "\(status)")
        let listID = pretix["list"] as? Int
        #expect(try server.facts.conference.checkinLists.map(\.id).contains(listID ?? -1), "a list of the device's event: \(pretix)")
    }
}
