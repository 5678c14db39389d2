import CheckInCore
import Foundation
import KioskTestSupport
import Testing

/// What only pretix decides (a list's rules, questions at the door) and a station set to ask
/// pretix first, through real `kiosk` processes against the suite's real pretix.
extension PretixStationTests {
    /// A new device connected to list `listName` of `event`, with `extra` options: the connect's JSON.
    func connect(_ name: String, event: String, list listName: String, data: String, _ extra: [String] = []) async throws
        -> (device: PretixFacts.Device, list: PretixFacts.CheckInList, answer: [String: Any]) {
        let server = try Self.server.get()
        let list = try server.facts.event(event).list(listName)
        let device = try await server.addDevice(name: name)
        let connected = try run(kiosk, ["pretix", "connect", "--url", server.url, "--token", device.initializationToken, "--event", event,
                                        "--list", "\(list.id)", "--json", "--data-dir", data] + extra)
        try #require(connected.status == 0, "\(connected.stderr)")
        return (device, list, try connected.json())
    }

    func checkInJSON(_ code: String, data: String) throws -> (status: Int32, answer: [String: Any]) {
        let result = try run(kiosk, ["checkin", code, "--json", "--data-dir", data])
        return (result.status, (try? result.json()) ?? ["stdout": result.stdout, "stderr": result.stderr])
    }

    @Test func entriesAtAListWithRulesArePretixsToDecideInItsWordsAndRefusedWhilePretixCannotBeAsked() async throws {
        let server = try Self.server.get()
        let festival = try server.facts.festival
        let directory = TemporaryDirectory("pretix-station-rules")
        defer { directory.remove() }
        let data = directory.appending("station").path
        let (device, list, connected) = try await connect("Station Rules", event: "festival", list: "At most 2 entries", data: data)
        #expect((connected["pretix_decides"] as? [String])?.first == "the list's rules", "\(connected)")
        let guest = festival.positions(.paid)[0], other = festival.positions(.paid)[1]

        // pretix's rule ("fewer than 2 entries before") is pretix's to apply: two entries, then its refusal in its words.
        #expect(try checkIn(guest.secret, data: data).status == 0)
        let second = try checkInJSON(guest.secret, data: data)
        #expect(second.status == 0, "a second entry within the rule, though this station just saw the first: \(second.answer)")
        let third = try checkInJSON(guest.secret, data: data)
        #expect(third.status == 20 && third.answer["decision"] as? String == "rules", "\(third.answer)")
        #expect((third.answer["explanation"] as? String)?.isEmpty == false, "pretix's own words: \(third.answer)")

        // pretix cannot be asked: refused as only pretix's to decide, nothing recorded.
        try server.stop()
        let down = try checkInJSON(other.secret, data: data)
        try server.resume()
        #expect(down.status == 19 && down.answer["decision"] as? String == "needs_online" && down.answer["online_only"] as? String == "rules",
                "\(down.answer)")
        let status = try run(kiosk, ["status", "--json", "--data-dir", data]).json()
        #expect(((status["sync"] as? [String: Any])?["pending"] as? Int ?? 0) >= 2, "the two admissions wait for the upload: \(status)")

        // The uploads pretix had already decided add nothing: two entries, one refusal by its rules.
        #expect(try run(kiosk, ["pretix", "sync", "--data-dir", data]).status == 0)
        let recorded = try await server.checkIns(event: "festival").filter { $0.list == list.id && $0.deviceID == device.id }
        #expect(recorded.filter { $0.position == guest.id && $0.successful }.count == 2, "\(recorded.map { ($0.position ?? 0, $0.successful) })")
        #expect(recorded.filter { $0.position == guest.id && !$0.successful }.map(\.errorReason) == ["rules"])
        #expect(recorded.filter { $0.position == other.id }.map(\.successful) == [false], "the scan turned away while pretix was down is reported, not admitted")
    }

    @Test func aProductWithQuestionsAtTheDoorIsPretixsToDecideWhileOtherTicketsAreDecidedHere() async throws {
        let server = try Self.server.get()
        let festival = try server.facts.festival
        let directory = TemporaryDirectory("pretix-station-questions")
        defer { directory.remove() }
        let data = directory.appending("station").path
        let (_, _, connected) = try await connect("Station Questions", event: "festival", list: "All entrances", data: data)
        #expect(connected["pretix_decides"] as? [String] == ["questions for 1 product(s)"], "\(connected)")
        let waiver = try festival.position(.questionToAsk), dayPass = festival.positions(.paid)[2]

        try server.stop()
        let down = try checkInJSON(waiver.secret, data: data)
        let plain = try checkInJSON(dayPass.secret, data: data)
        try server.resume()
        #expect(down.status == 19 && down.answer["online_only"] as? String == "questions", "\(down.answer)")
        #expect(plain.status == 0, "a day pass needs no answer: decided here while pretix is down: \(plain.answer)")
        // pretix answers: the station has no question form, so pretix admits without asking, as it does for its own devices without one.
        #expect(try checkIn(waiver.secret, data: data).status == 0)
    }

    @Test func anOnlineFirstStationTakesPretixsWordForLateOrdersAndOtherDoorsAndDecidesItselfWhenPretixIsDown() async throws {
        let server = try Self.server.get()
        let conference = try server.facts.conference
        let general = try #require(conference.items.first { $0.name == "General admission" })
        let directory = TemporaryDirectory("pretix-station-online-first")
        defer { directory.remove() }
        let data = directory.appending("station").path
        let (device, list, connected) = try await connect("Station Online", event: "conference", list: "Paid only", data: data,
                                                          ["--decide", "online-first", "--online-budget-ms", "1500"])
        #expect(connected["decide"] as? String == "online-first" && connected["online_budget_ms"] as? Int == 1500, "\(connected)")

        // Sold after the download: pretix admits it at once, no sync needed.
        let late = try await server.placeOrder(event: "conference", item: general.id, attendee: "Lou Late")
        let admitted = try checkInJSON(late.secret, data: data)
        #expect(admitted.status == 0, "\(admitted.answer)")
        // Admitted at another door a moment ago: pretix says so before this station has synced.
        let elsewhere = try await server.placeOrder(event: "conference", item: general.id, attendee: "Eve Elsewhere")
        _ = try run(kiosk, ["pretix", "sync", "--data-dir", data])
        let redeemed = try await otherDoor(server).redeem(organizer: server.facts.organizer.slug, secret: elsewhere.secret, list: list.id)
        #expect(redeemed.status == "ok", "\(redeemed)")
        let again = try checkInJSON(elsewhere.secret, data: data)
        #expect(again.status == 11, "\(again.answer)")

        // pretix down: the station decides on its copy, after at most the budget.
        let paid = try await server.placeOrder(event: "conference", item: general.id, attendee: "Pat Present")
        _ = try run(kiosk, ["pretix", "sync", "--data-dir", data])
        try server.stop()
        let started = Date()
        let offline = try checkInJSON(paid.secret, data: data)
        let took = Date().timeIntervalSince(started)
        try server.resume()
        #expect(offline.status == 0, "\(offline.answer)")
        #expect(took < 30, "decided without pretix (\(took) s, process start included)")

        // Each admission once in pretix, whichever way it arrived (online, or uploaded later under the same nonce).
        #expect(try run(kiosk, ["pretix", "sync", "--data-dir", data]).status == 0)
        let recorded = try await server.checkIns(event: "conference").filter { $0.list == list.id && $0.deviceID == device.id && $0.successful }
        #expect(recorded.filter { $0.position == late.id }.count == 1)
        #expect(recorded.filter { $0.position == paid.id }.count == 1)
        #expect(recorded.filter { $0.position == elsewhere.id }.isEmpty)
    }
}

extension PretixStationTests {
    @Test func aTicketTheListDoesNotAdmitIsNotValidForThisEntranceAndPretixHearsItsOwnReason() async throws {
        let server = try Self.server.get()
        let conference = try server.facts.conference
        let general = try #require(conference.items.first { $0.name == "General admission" })
        let guest = try await server.placeOrder(event: "conference", item: general.id, attendee: "Gil General")
        let directory = TemporaryDirectory("pretix-station-product")
        defer { directory.remove() }
        let data = directory.appending("station").path
        let (device, list, _) = try await connect("Station VIP", event: "conference", list: "VIP lounge", data: data)

        // Not "ticket not recognized": the ticket is pretix's, only not for this door.
        let refused = try checkInJSON(guest.secret, data: data)
        #expect(refused.status == 13 && refused.answer["refusal"] as? String == "product", "\(refused.answer)")
        let plain = try run(kiosk, ["checkin", guest.secret, "--data-dir", data])
        #expect(plain.stdout.contains("Not valid for this entrance (General admission)"), "\(plain.stdout)")
        #expect(try run(kiosk, ["pretix", "sync", "--data-dir", data]).status == 0)
        let failed = try await server.checkIns(event: "conference", position: guest.id).filter { $0.list == list.id && $0.deviceID == device.id }
        #expect(failed.map(\.errorReason) == ["product", "product"], "\(failed)")
    }
}
