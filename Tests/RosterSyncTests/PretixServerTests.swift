import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import KioskTestSupport
import Testing

/// The real pretix the station's pretix tests run against (`Kiosk/pretix-server.sh`): a device
/// initializes and downloads as pretixSCAN does, the organizer's actions reach it, and a stopped
/// server leaves nothing running.
@Suite(.hangGuard, .tags(.endToEnd), .endToEnd, .blocking,
       .enabled(if: PretixServer.canRun, "pretix tests skipped: \(PretixServer.missing ?? "")"))
struct PretixServerTests {
    /// What a station sends to `device/initialize` besides the token.
    struct Initialize: Encodable {
        var token: String
        var hardwareBrand = "Test"
        var hardwareModel = "Door rig"
        var osName = "Linux"
        var osVersion = "Debian 12"
        var softwareBrand = "checkin-kiosk"
        var softwareVersion = "0.0-test"
    }

    struct Initialized: Decodable {
        var organizer: String
        var deviceId: Int
        var apiToken: String
        var name: String
        var securityProfile: String
        var gate: PretixFacts.Gate?
    }

    struct EventDetail: Decodable {
        var validKeys: ValidKeys
        struct ValidKeys: Decodable { var pretixSig1: [String] }
    }

    struct ListPosition: Decodable, Sendable {
        var id: Int
        var secret: String
        var order: String
        var attendeeName: String?
    }

    func initialize(_ server: PretixServer, _ device: PretixFacts.Device) async throws -> Initialized {
        try await server.anonymous.post("/api/v1/device/initialize", Initialize(token: device.initializationToken))
            .decode(Initialized.self)
    }

    func positionsPath(_ server: PretixServer, event: PretixFacts.Event, list: PretixFacts.CheckInList) -> String {
        "/api/v1/organizers/\(server.facts.organizer.slug)/events/\(event.slug)/checkinlists/\(list.id)/positions/"
    }

    @Test func aSeededPretixInitializesAPretixscanDeviceWhoseTokenDownloadsThePositions() async throws {
        let started = Date()
        let server = try PretixServer()
        print("pretix seeded and serving in \(String(format: "%.1f", Date().timeIntervalSince(started))) s at \(server.url)")
        var group: Int32?
        do {
            group = server.processGroup
            let door = try server.facts.device("Door 1")
            #expect(door.securityProfile == "pretixscan")
            let device = try await initialize(server, door)
            #expect(device.organizer == server.facts.organizer.slug)
            #expect(device.deviceId == door.id)
            #expect(device.securityProfile == "pretixscan")
            #expect(device.gate == door.gate)
            let again = try await server.anonymous.post("/api/v1/device/initialize", Initialize(token: door.initializationToken))
            #expect(again.status == 400, "an initialization token is single-use: \(again.text)")

            let conference = try server.facts.conference
            let main = try conference.list("Main entrance")
            let page = try await server.device(token: device.apiToken).get(positionsPath(server, event: conference, list: main))
                .decode(PretixPage<ListPosition>.self)
            let bySecret = Dictionary(page.results.map { ($0.secret, $0) }, uniquingKeysWith: { first, _ in first })
            let paid = try conference.position(.paid)
            #expect(bySecret[paid.secret]?.id == paid.id)
            #expect(bySecret[paid.secret]?.attendeeName == "Ada Lovelace")
            #expect(bySecret[try conference.position(.pending).secret] != nil, "the list includes pending orders")
            #expect(bySecret[try conference.position(.canceled).secret] == nil, "pretix lists no canceled order's positions")
            #expect(page.count == page.results.count && page.next == nil, "the seeded event fits one page")

            let unauthorized = try await server.device(token: "not-a-token").get(positionsPath(server, event: conference, list: main))
            #expect(unauthorized.status == 401)
        } catch {
            Issue.record("\(error)\n\(server.log)")
        }
        server.remove()

        let master = try #require(group, "the server recorded its process group")
        #expect(liveProcesses(inGroup: master).isEmpty, "gunicorn's master and worker are gone")
        await #expect(throws: URLError.self, "nothing answers on the server's port") {
            _ = try await server.anonymous.get("/api/v1/device/info")
        }
        #expect(!FileManager.default.fileExists(atPath: server.directory.path), "its directory is removed")
    }

    @Test func theOrganizersLateOrderCheckInsRevocationAndOutageReachTheDevice() async throws {
        let server = try PretixServer(orders: 120)
        defer { server.remove() }
        do {
            let device = try await initialize(server, try server.facts.device("Door 2"))
            let api = server.device(token: device.apiToken)
            let conference = try server.facts.conference
            let main = try conference.list("Main entrance")

            // A sale after the seed reaches the device's download.
            let late = try await server.placeOrder(event: conference.slug, item: try conference.item("General admission").id,
                                                   attendee: "Late Comer", company: "Lateco")
            #expect(late.orderStatus == .paid)
            let listed = try await api.get(positionsPath(server, event: conference, list: main)).decode(PretixPage<ListPosition>.self)
            #expect(listed.results.contains { $0.secret == late.secret && $0.attendeeName == "Late Comer" })

            // A scan by the device is counted in pretix's check-ins, with the device's id.
            let paid = try conference.position(.paid)
            let redeemed = try await api.redeem(organizer: server.facts.organizer.slug, secret: paid.secret, list: main.id)
            #expect(redeemed.outcome == "ok", "\(redeemed)")
            let checkIns = try await server.checkIns(event: conference.slug, position: paid.id)
            #expect(checkIns.count == 1)
            #expect(checkIns.first?.successful == true && checkIns.first?.deviceID == device.deviceId && checkIns.first?.list == main.id)

            // The bulk event pages like any other: 120 positions, 50 a page.
            let big = try server.facts.big
            #expect(big.positions(.bulk).count == 120)
            var secrets: Set<String> = []
            var next: String? = positionsPath(server, event: big, list: try big.list("Entrance"))
            var pages = 0
            while let path = next {
                let page = try await api.get(path).decode(PretixPage<ListPosition>.self)
                secrets.formUnion(page.results.map(\.secret))
                next = page.next
                pages += 1
            }
            #expect(pages == 3 && secrets == Set(big.positions(.bulk).map(\.secret)))

            // Down and back: the same data on the same port.
            try server.stop()
            await #expect(throws: URLError.self) { _ = try await api.get("/api/v1/device/info") }
            try server.resume()
            #expect(try await api.get("/api/v1/device/info").status == 200)

            // Revoked in pretix's backend: the token is refused with pretix's own words.
            try server.revokeDevice(device.deviceId)
            let revoked = try await api.get("/api/v1/device/info")
            #expect(revoked.status == 401 && revoked.text.contains("Device access has been revoked."), "\(revoked.status) \(revoked.text)")
        } catch {
            Issue.record("\(error)\n\(server.log)")
        }
    }

    @Test func everySeededScenarioIsDecidedByPretixAsItsNameSays() async throws {
        let server = try PretixServer()
        defer { server.remove() }
        do {
            let device = try await initialize(server, try server.facts.device("Door 1"))
            let api = server.device(token: device.apiToken)
            let organizer = server.facts.organizer.slug
            let conference = try server.facts.conference
            let festival = try server.facts.festival
            let cases: [(PretixFacts.Event, String, PretixFacts.Scenario, String)] = [
                (conference, "Main entrance", .paid, "ok"),
                (conference, "Main entrance", .multi, "ok"),
                (conference, "Main entrance", .pending, "unpaid"),
                (conference, "Paid only", .pending, "unpaid"),
                (conference, "Main entrance", .unapproved, "unapproved"),
                (conference, "Main entrance", .expired, "canceled"),
                (conference, "Main entrance", .canceled, "canceled"),
                (conference, "Main entrance", .blocked, "blocked"),
                (conference, "Main entrance", .validFromFuture, "invalid_time"),
                (conference, "Main entrance", .validUntilPast, "invalid_time"),
                (conference, "VIP lounge", .hostileName, "product"),
                (festival, "All entrances", .blocked, "blocked"),
                (festival, "All entrances", .canceled, "canceled"),
                (festival, "All entrances", .validFromFuture, "invalid_time"),
                (festival, "All entrances", .questionToAsk, "incomplete"),
                (festival, "Open now", .paid, "ok"),
                (festival, "Closed now", .paid, "rules"),
            ]
            for (event, list, scenario, expected) in cases {
                let decided = try await api.redeem(organizer: organizer, secret: try event.position(scenario).secret, list: try event.list(list).id)
                #expect(decided.outcome == expected, "\(event.slug), \(list), \(scenario): \(decided)")
            }

            let attention = try await api.redeem(organizer: organizer, secret: try conference.position(.attention).secret,
                                                 list: try conference.list("VIP lounge").id)
            #expect(attention.outcome == "ok" && attention.requireAttention == true)
            #expect(attention.checkinTexts == ["VIP: hand over the lanyard"])

            // The signed event's key, as the device downloads it, is the one in the facts.
            let detail = try await api.get("/api/v1/organizers/\(organizer)/events/\(festival.slug)/").decode(EventDetail.self)
            #expect(detail.validKeys.pretixSig1 == festival.validKeys && festival.validKeys.count == 1)
            #expect(conference.validKeys.isEmpty)

            // A canceled signed ticket: its old secret is on the revoked list.
            let revoked = try #require(try festival.position(.canceled).revokedSecrets.first)
            #expect(try await api.redeem(organizer: organizer, secret: revoked, list: try festival.list("All entrances").id).outcome == "revoked")

            // The waiver, the session and a phone number are asked at the door; once answered, the ticket is admitted.
            let waiver = try #require(festival.questions.first { $0.identifier == "WAIVER" })
            let session = try #require(festival.questions.first { $0.identifier == "SESSION" })
            let phone = try #require(festival.questions.first { $0.identifier == "PHONE" })
            let workshop = try festival.position(.questionToAsk)
            let asked = try await api.redeem(organizer: organizer, secret: workshop.secret, list: try festival.list("All entrances").id)
            #expect(asked.questions?.map(\.id) == [waiver.id, session.id, phone.id])
            let answered = try await api.redeem(organizer: organizer, secret: workshop.secret, list: try festival.list("All entrances").id,
                                                answers: [String(waiver.id): "True", String(session.id): String(session.options[0].id),
                                                          String(phone.id): ""])
            #expect(answered.outcome == "ok", "\(answered)")

            // The size is shown at the door: the order's answer comes with the position.
            let size = try #require(festival.questions.first { $0.identifier == "SIZE" })
            let shirt = try await api.redeem(organizer: organizer, secret: try festival.position(.answerShown).secret,
                                             list: try festival.list("All entrances").id)
            #expect(shirt.position?.answers?.contains { $0.question == size.id && $0.answer == "M" } == true, "\(shirt)")

            // "At most 2 entries": the third entry is refused by the list's rule.
            let ticket = festival.positions(.paid)[1].secret
            let twice = try festival.list("At most 2 entries").id
            var outcomes: [String] = []
            for _ in 0..<3 { outcomes.append(try await api.redeem(organizer: organizer, secret: ticket, list: twice).outcome) }
            #expect(outcomes == ["ok", "ok", "rules"])
        } catch {
            Issue.record("\(error)\n\(server.log)")
        }
    }
}
