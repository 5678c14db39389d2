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

    @Test func aListsRulesAreDecidedOfflineCountingAnotherDoorsEntriesAsPretixDecidesThem() async throws {
        let server = try Self.server.get()
        let festival = try server.facts.festival
        let directory = TemporaryDirectory("pretix-station-rules")
        defer { directory.remove() }
        let data = directory.appending("station").path
        let (device, list, connected) = try await connect("Station Rules", event: "festival", list: "At most 2 entries", data: data)
        #expect(!(connected["pretix_decides"] as? [String] ?? []).contains("the list's rules"), "the station reads the rule itself: \(connected)")
        let guest = festival.positions(.paid)[0], other = festival.positions(.paid)[1]

        // Door A (another pretix device) admitted the guest twice, a while ago; station B learns it with its sync.
        let doorA = try await otherDoor(server)
        for minutes in [20, 10] {
            let redeemed = try await doorA.post("/api/v1/organizers/\(server.facts.organizer.slug)/checkinrpc/redeem/", EarlierRedeem(
                secret: guest.secret, lists: [list.id], nonce: "rules-a-\(minutes)-\(UUID().uuidString.prefix(8))",
                datetime: Date().addingTimeInterval(-Double(minutes) * 60)))
            #expect(redeemed.status == 201, "\(redeemed.text)")
        }
        #expect(try run(kiosk, ["pretix", "sync", "--data-dir", data]).status == 0)

        // pretix down: station B applies "fewer than 2 entries before" to every door's entries.
        try server.stop()
        let third = try checkInJSON(guest.secret, data: data)
        let first = try checkInJSON(other.secret, data: data)
        try server.resume()
        #expect(third.status == 20 && third.answer["decision"] as? String == "rules", "\(third.answer)")
        #expect(third.answer["explanation"] as? String == "Maximum number of entries exceeded", "pretix's own words: \(third.answer)")
        #expect(first.status == 0, "\(first.answer)")

        // pretix hears both, and decides the guest's next entry as station B did.
        #expect(try run(kiosk, ["pretix", "sync", "--data-dir", data]).status == 0)
        let recorded = try await server.checkIns(event: "festival").filter { $0.list == list.id && $0.deviceID == device.id }
        #expect(recorded.filter { $0.position == guest.id }.map(\.errorReason) == ["rules"], "\(recorded.map { ($0.position ?? 0, $0.successful) })")
        #expect(recorded.filter { $0.position == other.id }.map(\.successful) == [true])
        #expect(try await doorA.redeem(organizer: server.facts.organizer.slug, secret: guest.secret, list: list.id).outcome == "rules")
    }

    @Test func timeOfDayRulesAreDecidedOfflineAsPretixDecidesThemOnline() async throws {
        let server = try Self.server.get()
        let festival = try server.facts.festival
        let directory = TemporaryDirectory("pretix-station-time-rules")
        defer { directory.remove() }
        let doorA = try await otherDoor(server)
        for (name, expected) in [("Open now", "ok"), ("Closed now", "rules")] {
            let data = directory.appending(name).path
            let (_, list, _) = try await connect("Station \(name)", event: "festival", list: name, data: data)
            let ticket = festival.positions(.paid)[name == "Open now" ? 2 : 3]
            try server.stop()
            let decided = try checkInJSON(ticket.secret, data: data)
            try server.resume()
            #expect((decided.status == 0 ? "ok" : decided.answer["decision"] as? String) == expected, "\(name): \(decided.answer)")
            if expected == "rules" {
                #expect((decided.answer["explanation"] as? String)?.hasPrefix("Only allowed ") == true, "after or before, as the seeding time falls: \(decided.answer)")
            }
            let online = try await doorA.redeem(organizer: server.facts.organizer.slug, secret: festival.positions(.paid)[4].secret, list: list.id)
            #expect(online.outcome == expected, "pretix itself, \(name): \(online)")
        }
    }

    /// The workshop's three questions at the door, as pretix seeded them.
    func workshopQuestions(_ festival: PretixFacts.Event) throws -> (waiver: PretixFacts.Question, session: PretixFacts.Question, phone: PretixFacts.Question) {
        (try #require(festival.questions.first { $0.identifier == "WAIVER" }), try #require(festival.questions.first { $0.identifier == "SESSION" }),
         try #require(festival.questions.first { $0.identifier == "PHONE" }))
    }

    @Test func questionsAtTheDoorAreAskedOfflineRequiredOnesEnforcedAndTheAnswersReachPretix() async throws {
        let server = try Self.server.get()
        let festival = try server.facts.festival
        let directory = TemporaryDirectory("pretix-station-questions")
        defer { directory.remove() }
        let data = directory.appending("station").path
        let (_, list, connected) = try await connect("Station Questions", event: "festival", list: "All entrances", data: data)
        #expect(connected["pretix_decides"] as? [String] == [], "the door asks the questions itself: \(connected)")
        #expect(connected["questions_at_the_door"] as? Int == 3, "\(connected)")
        let (waiver, session, phone) = try workshopQuestions(festival)
        let wendy = try festival.position(.questionToAsk), dayPass = festival.positions(.paid)[2]

        // What pretix says online for the same ticket on the twin list: the same questions, nothing recorded.
        let online = try await otherDoor(server).redeem(organizer: server.facts.organizer.slug, secret: wendy.secret,
                                                        list: try festival.list("At most 2 entries (online twin)").id)
        #expect(online.outcome == "incomplete" && online.questions?.map(\.id) == [waiver.id, session.id, phone.id], "\(online)")

        // pretix down: the door asks, enforces and records by itself.
        try server.stop()
        let asked = try checkInJSON(wendy.secret, data: data)
        let questions = asked.answer["questions"] as? [[String: Any]] ?? []
        #expect(asked.status == 21 && asked.answer["decision"] as? String == "questions", "\(asked.answer)")
        #expect(questions.compactMap { $0["id"] as? String } == [waiver.id, session.id, phone.id].map(String.init), "\(questions)")
        #expect(questions.map { $0["type"] as? String } == ["yes_no", "choice", "phone"])
        #expect((questions[1]["options"] as? [[String: Any]])?.compactMap { $0["label"] as? String } == ["Morning", "Afternoon"])
        let refusedWaiver = try run(kiosk, ["checkin", wendy.secret, "--json", "--data-dir", data, "--answer", "\(waiver.id)=no",
                                            "--answer", "\(session.id)=2", "--answer", "\(phone.id)="])
        #expect(refusedWaiver.status == 21, "a required yes/no must be yes: \(refusedWaiver.stdout)")
        #expect(refusedWaiver.stdout.contains("This must be yes to enter"), "\(refusedWaiver.stdout)")
        let admitted = try run(kiosk, ["checkin", wendy.secret, "--data-dir", data, "--answer", "\(waiver.id)=yes",
                                       "--answer", "\(session.id)=2", "--answer", "\(phone.id)=+1 212 555 0100"])
        #expect(admitted.status == 0, "\(admitted.stdout) \(admitted.stderr)")
        #expect(try checkInJSON(dayPass.secret, data: data).status == 0, "a day pass has no questions")
        try server.resume()

        // Uploaded with the check-in: pretix holds the answers, as if its own device had asked.
        #expect(try run(kiosk, ["pretix", "sync", "--data-dir", data]).status == 0)
        let recorded = try await server.checkIns(event: "festival").filter { $0.list == list.id && $0.position == wendy.id && $0.successful }
        #expect(recorded.count == 1)
        let answers = try await server.answers(event: "festival", position: wendy.id)
        #expect(answers[waiver.id] == "True" && answers[session.id] == "Afternoon" && answers[phone.id] == "+12125550100", "\(answers)")
        // Answered now: the next download brings no question to ask.
        let again = try checkInJSON(wendy.secret, data: data)
        #expect([10, 11].contains(again.status), "already in, not asked again: \(again.answer)")
    }

    @Test func questionsAnsweredAtAnEntryAreNotAskedAgainAtTheNextEntryBeforeTheNextDownload() async throws {
        let server = try Self.server.get()
        let festival = try server.facts.festival
        let directory = TemporaryDirectory("pretix-station-questions-reentry")
        defer { directory.remove() }
        let data = directory.appending("station").path
        _ = try await connect("Station Questions Reentry", event: "festival", list: "At most 2 entries", data: data)
        let (waiver, session, phone) = try workshopQuestions(festival)
        let ria = festival.positions(.questionToAsk)[3]
        let first = try run(kiosk, ["checkin", ria.secret, "--data-dir", data, "--answer", "\(waiver.id)=yes",
                                    "--answer", "\(session.id)=1", "--answer", "\(phone.id)="])
        #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
        let out = try run(kiosk, ["checkin", ria.secret, "--exit", "--data-dir", data])
        #expect(out.status == 0, "\(out.stdout) \(out.stderr)")
        // Back in (the list allows a second entry), with no download since: the waiver and the
        // session are answered; the phone, left empty, is asked again (as pretix asks it).
        let second = try checkInJSON(ria.secret, data: data)
        let asked = (second.answer["questions"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(second.status == 21 && asked == [String(phone.id)], "\(second.answer)")
        let admitted = try run(kiosk, ["checkin", ria.secret, "--data-dir", data, "--answer", "\(phone.id)="])
        #expect(admitted.status == 0, "\(admitted.stdout) \(admitted.stderr)")
    }

    @Test func aHeadlessCallerIsToldTheQuestionsAndAnswersThemOnAJSONLine() async throws {
        let server = try Self.server.get()
        let festival = try server.facts.festival
        let directory = TemporaryDirectory("pretix-station-questions-headless")
        defer { directory.remove() }
        let data = directory.appending("station").path
        _ = try await connect("Station Questions Headless", event: "festival", list: "All entrances", data: data)
        let (waiver, session, phone) = try workshopQuestions(festival)
        let hal = festival.positions(.questionToAsk)[2]
        let station = try StationProcess(["run", "--headless", "--no-demo", "--printer", "none", "--data-dir", data], headless: true)
        defer { station.kill9() }
        let asked = try #require(station.present(hal.secret), "\(station.output.suffix(5))")
        #expect(asked["decision"] as? String == "questions", "\(asked)")
        #expect((asked["questions"] as? [[String: Any]])?.count == 3, "\(asked)")
        // JSON's own values as what staff would type: true for the waiver, null for no phone.
        let answers: [String: Any] = [String(waiver.id): true, String(session.id): "Morning", String(phone.id): NSNull()]
        let line = String(decoding: try JSONSerialization.data(withJSONObject: ["code": hal.secret, "answers": answers]), as: UTF8.self)
        let before = station.decisions(for: hal.secret).count
        station.send(line)
        station.wait(limit: 30) { _ in station.decisions(for: hal.secret).count > before }
        #expect(station.decisions(for: hal.secret).last?["decision"] as? String == "admitted", "\(station.output.suffix(5))")
        let held = try await server.answers(event: "festival", position: hal.id, once: waiver.id)
        #expect(held[waiver.id] == "True" && held[session.id] == "Morning" && held[phone.id] == nil, "\(held)")
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

/// A scan another device made earlier and uploads now (pretix's redeem with `datetime` and `force`).
struct EarlierRedeem: Encodable {
    var secret: String
    var lists: [Int]
    var type = "entry"
    var nonce: String
    var datetime: Date
    var force = true
    var questionsSupported = false

    enum CodingKeys: String, CodingKey {
        case secret, lists, type, nonce, datetime, force
        case questionsSupported = "questions_supported"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(secret, forKey: .secret)
        try container.encode(lists, forKey: .lists)
        try container.encode(type, forKey: .type)
        try container.encode(nonce, forKey: .nonce)
        try container.encode(ISO8601DateFormatter().string(from: datetime), forKey: .datetime)
        try container.encode(force, forKey: .force)
        try container.encode(questionsSupported, forKey: .questionsSupported)
    }
}
