import CheckInCore
import Foundation
import KioskTestSupport
import PrintTestSupport
import Testing

/// pretix's signed tickets (`pretix_sig1`) at a station, through real `kiosk` processes against
/// the suite's real pretix: a ticket's own signature admits it with no order data.
extension PretixStationTests {
    @Test func aSignedTicketSoldAfterTheDownloadIsAdmittedOfflineByItsSignatureAndPretixRecordsItOnce() async throws {
        let server = try Self.server.get()
        let festival = try server.facts.festival
        let dayPass = try #require(festival.items.first { $0.name == "Day pass" })
        let directory = TemporaryDirectory("pretix-station-signed")
        defer { directory.remove() }
        let data = directory.appending("station").path
        let (device, list, _) = try await connect("Station Signed", event: "festival", list: "All entrances", data: data)

        // Sold after the download, then pretix goes down: no order for it on the station.
        let late = try await server.placeOrder(event: "festival", item: dayPass.id, attendee: "Sia Signed")
        let revoked = try #require(try festival.position(.canceled).revokedSecrets.first, "a canceled ticket's old secret")
        try server.stop()
        let admitted = try checkInJSON(late.secret, data: data)
        let again = try checkInJSON(late.secret, data: data)
        let withdrawn = try checkInJSON(revoked, data: data)
        let forged = try checkInJSON(Self.flipped(late.secret), data: data)
        try server.resume()

        #expect(admitted.status == 0, "\(admitted.answer)")
        #expect([10, 11].contains(again.status), "one entry: \(again.answer)")
        #expect(withdrawn.status == 15 && withdrawn.answer["decision"] as? String == "revoked", "\(withdrawn.answer)")
        #expect(forged.status == 12, "a code no key signed is unknown: \(forged.answer)")

        // pretix records the admission once, from this device, and the refusal with its own reason;
        // the next download brings the order's name to the ticket admitted nameless.
        let synced = try run(kiosk, ["pretix", "sync", "--data-dir", data])
        #expect(synced.status == 0, "\(synced.stderr)")
        let recorded = try await server.checkIns(event: "festival").filter { $0.list == list.id && $0.deviceID == device.id }
        #expect(recorded.filter { $0.position == late.id && $0.successful }.count == 1, "\(recorded)")
        #expect(recorded.contains { !$0.successful && $0.errorReason == "revoked" }, "\(recorded.map { ($0.successful, $0.errorReason) })")
        // An order's answer pretix shows during check-in is shown at the door too.
        let shirt = try checkInJSON(festival.position(.answerShown).secret, data: data)
        #expect(shirt.status == 0 && shirt.answer["answers"] as? [String] == ["T-shirt size: M"], "\(shirt.answer)")
        let named = try checkInJSON(late.secret, data: data)
        #expect([10, 11].contains(named.status) && (named.answer["guest"] as? [String: Any])?["name"] as? String == "Sia Signed", "\(named.answer)")
    }

    /// A new device of pretix's "online, no orders" profile connected to `listName` of `event`.
    func connectHoldingNoOrders(_ name: String, event: String, list listName: String, data: String,
                                profile: String = "pretixscan_online_noorders") async throws -> [String: Any] {
        let server = try Self.server.get()
        let list = try server.facts.event(event).list(listName)
        let device = try await server.addDevice(name: name, securityProfile: profile)
        let connected = try run(kiosk, ["pretix", "connect", "--url", server.url, "--token", device.initializationToken, "--event", event,
                                        "--list", "\(list.id)", "--json", "--data-dir", data])
        try #require(connected.status == 0, "\(connected.stderr)")
        return try connected.json()
    }

    @Test func aStationThatHoldsNoOrdersAdmitsSignedTicketsOfflineAndAsksPretixForOthers() async throws {
        let server = try Self.server.get()
        let festival = try server.facts.festival, conference = try server.facts.conference
        let dayPass = try #require(festival.items.first { $0.name == "Day pass" })
        let general = try #require(conference.items.first { $0.name == "General admission" })
        let directory = TemporaryDirectory("pretix-station-no-orders")
        defer { directory.remove() }
        let signedData = directory.appending("signed").path, plainData = directory.appending("plain").path
        #expect(try await connectHoldingNoOrders("No orders, signed", event: "festival", list: "All entrances", data: signedData)["orders"] as? Int == 0)
        #expect(try await connectHoldingNoOrders("No orders, plain", event: "conference", list: "Main entrance", data: plainData)["orders"] as? Int == 0)
        let signed = try await server.placeOrder(event: "festival", item: dayPass.id, attendee: "Nora Noorders")
        let plain = try await server.placeOrder(event: "conference", item: general.id, attendee: "Paul Plain")
        let plainLater = try await server.placeOrder(event: "conference", item: general.id, attendee: "Lena Later")

        // pretix answers: a signed ticket is admitted by its signature, another ticket by pretix's word.
        #expect(try checkInJSON(signed.secret, data: signedData).status == 0)
        #expect(try checkInJSON(plain.secret, data: plainData).status == 0)
        #expect(try checkInJSON(plain.secret, data: plainData).status == 11, "pretix says it is in already")
        #expect(try checkInJSON("no-such-ticket", data: plainData).status == 12)

        // pretix down: signed tickets still pass; an unsigned one cannot be checked here, and says so.
        let signedLater = try await server.placeOrder(event: "festival", item: dayPass.id, attendee: "Otto Offline")
        try server.stop()
        let offlineSigned = try checkInJSON(signedLater.secret, data: signedData)
        let offlinePlain = try checkInJSON(plainLater.secret, data: plainData)
        try server.resume()
        #expect(offlineSigned.status == 0, "\(offlineSigned.answer)")
        #expect(offlinePlain.status == 19 && offlinePlain.answer["online_only"] as? String == "ticket", "\(offlinePlain.answer)")
        let words = try run(kiosk, ["checkin", "still-unknown-offline", "--data-dir", plainData])
        #expect(words.status == 12, "pretix up again: an unknown code is pretix's invalid: \(words.stdout)")
    }

    @Test func aKioskProfileStationAtTheConsoleAdmitsSignedTicketsAndOffersNoSearch() async throws {
        let server = try Self.server.get()
        let festival = try server.facts.festival
        let dayPass = try #require(festival.items.first { $0.name == "Day pass" })
        let directory = TemporaryDirectory("pretix-kiosk-profile")
        defer { directory.remove() }
        let data = directory.appending("station").path
        let connected = try await connectHoldingNoOrders("Kiosk door", event: "festival", list: "All entrances", data: data,
                                                         profile: "pretixscan_online_kiosk")
        #expect(connected["orders"] as? Int == 0)
        let late = try await server.placeOrder(event: "festival", item: dayPass.id, attendee: "Kim Kiosk")
        let console = try TmuxConsole(["--data-dir", data, "--printer", "none"], directory: directory, columns: 100, rows: 30)
        defer { console.stop() }
        try console.waitFor("Scan your ticket")
        try server.stop()
        defer { try? server.resume() }
        // pretix down, no orders held: the signature admits it.
        try console.type(late.secret)
        try console.send("Enter")
        try console.waitFor("Welcome")
        try console.send("F2")
        try console.waitFor("No search on this device")
        try server.resume()
    }

    @Test func aSignedTicketWithNoNameYetIsAdmittedAndItsBadgeWaitsForTheDeskWhileNamedTicketsPrint() async throws {
        let server = try Self.server.get()
        let festival = try server.facts.festival
        let dayPass = try #require(festival.items.first { $0.name == "Day pass" })
        let rig = try CupsRig(queues: ["badge"])
        defer { rig.stop() }
        let directory = TemporaryDirectory("pretix-nameless-badge")
        defer { directory.remove() }
        let data = directory.appending("station").path
        // A station that downloads the orders, started before this ticket was sold: it knows it by its signature only.
        let (_, _, connected) = try await connect("Badge desk", event: "festival", list: "All entrances", data: data)
        #expect((connected["orders"] as? Int ?? 0) > 0)
        let late = try await server.placeOrder(event: "festival", item: dayPass.id, attendee: "Nina Nameless")
        let named = festival.positions(.paid)[3]
        // pretix down from the start: the station cannot download the order (and the name) before the scan.
        try server.stop()
        defer { try? server.resume() }
        let station = try StationProcess(["run", "--headless", "--printer", "badge", "--data-dir", data],
                                         headless: true, environment: ["CUPS_SERVER": rig.server])
        defer { station.kill9() }
        station.wait { lines in lines.contains { $0.contains(#""event":"ready""#) } }
        let nameless = try #require(station.present(late.secret), "\(station.output.suffix(5))")
        #expect(nameless["decision"] as? String == "admitted", "\(nameless)")
        #expect((nameless["badge"] as? [String: Any])?["state"] as? String == "withheld", "no label with an empty name: \(nameless)")
        let printed = try #require(station.present(named.secret))
        #expect((printed["badge"] as? [String: Any])?["job"] as? Int != nil, "\(printed)")
        let deadline = Date().addingTimeInterval(60)
        while rig.outputs("badge").isEmpty && Date() < deadline { usleep(200_000) }
        #expect(rig.outputs("badge").count == 1, "one badge, the named guest's")
        try server.resume()
    }

    /// The code with one character changed (still base64: it reads as a signed ticket whose
    /// signature no longer verifies).
    static func flipped(_ code: String) -> String {
        var characters = Array(code)
        let middle = characters.count / 2
        characters[middle] = characters[middle] == "A" ? "B" : "A"
        return String(characters)
    }
}
