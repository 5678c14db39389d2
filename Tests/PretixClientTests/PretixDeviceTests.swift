import CheckInCore
import Foundation
import KioskTestSupport
import PretixClient
import Testing

/// The station's pretix client against a real pretix 2026.8 (`Kiosk/pretix-server.sh`): the
/// device's whole life, from the handshake to revocation, through pretix's own API. One server
/// for the suite; each test a device of its own and tickets no other test scans.
@Suite(.hangGuard, .tags(.endToEnd), .endToEnd, .blocking, .serialized,
       .enabled(if: PretixServer.canRun, "pretix tests skipped: \(PretixServer.missing ?? "")"))
struct PretixDeviceTests {
    var server: PretixServer { get throws { try SharedPretix.server.get() } }

    @Test func aHandshakeInitializesTheDeviceOnceAndPretixKnowsIt() async throws {
        let server = try server
        let door = try server.facts.device("Door 1")
        let handshake = try PretixHandshake(scanned: #"{"handshake_version": 1, "url": "\#(server.url)/", "token": "\#(door.initializationToken)"}"#)
        let device = try await PretixClient(server: handshake.server).initialize(token: handshake.token, identity: SharedPretix.identity)
        #expect(device.organizer == server.facts.organizer.slug && device.deviceID == door.id && device.name == "Door 1")
        #expect(device.securityProfile == .pretixscan && device.gate?.name == "Main gate" && !device.apiToken.isEmpty)

        await #expect(throws: PretixError.initializationRefused("token: This initialization token has already been used.")) {
            _ = try await PretixClient(server: handshake.server).initialize(token: handshake.token, identity: SharedPretix.identity)
        }

        let pretix = try PretixClient(server: handshake.server, device: device)
        let info = try await pretix.info()
        #expect(info.server.version.pretix == "2026.8.0" && info.device.deviceID == door.id && info.device.securityProfile == .pretixscan)
        var newer = SharedPretix.identity
        newer.softwareVersion = "0.1-test"
        let updated = try await pretix.update(identity: newer, info: ["station": "Door rig"])
        #expect(updated.apiToken == device.apiToken && updated.gate == device.gate)
        #expect(try await pretix.eventSelection(currentEvent: nil) == .none, "no check-in list at this device's gate: nothing to suggest")
        let conference = try server.facts.conference
        let running = (conference.admissionOpens..<conference.ends).contains(Date())
        #expect(try await pretix.eventSelection(currentEvent: conference.slug) == (running ? .keep : .none),
                "pretix keeps a chosen event while it admits (from 08:00 Berlin on the day of the seed)")
    }

    @Test func theCatalogAndEverySeededOrderDownloadAndADeltaBringsALateOrder() async throws {
        let server = try server
        let (pretix, _) = try await SharedPretix.newDevice("Downloader")
        let conference = try server.facts.conference
        let festival = try server.facts.festival

        #expect(Set(try await pretix.events().map(\.slug)) == ["conference", "festival", "big"])
        #expect(try await pretix.event(festival.slug).validKeys?.pretixSig1 == festival.validKeys)
        #expect(try await pretix.items(event: conference.slug).map { $0.name.text() }.sorted() == conference.items.map(\.name).sorted())
        let vip = try #require(try await pretix.items(event: conference.slug).first { $0.name.text() == "VIP" })
        #expect(vip.checkinAttention && vip.checkinText == "VIP: hand over the lanyard")
        let questions = try await pretix.questions(event: festival.slug)
        #expect(questions.map(\.identifier).sorted() == ["PHONE", "SESSION", "SIZE", "WAIVER"])
        #expect(questions.first { $0.identifier == "WAIVER" }?.askDuringCheckin == true)
        // As the door asks them: the workshop's three, in pretix's order, with the session's choices.
        let workshop = try #require(festival.items.first { $0.name == "Workshop" })
        let asked = PretixQuestion.askedAtTheDoor(questions)[workshop.id] ?? []
        #expect(asked.map(\.text) == ["I accept the workshop waiver", "Which session do you attend?", "Emergency phone"])
        #expect(asked.map(\.kind.name) == ["yes_no", "choice", "phone"] && asked.map(\.required) == [true, true, false])
        let lists = try await pretix.checkInLists(event: festival.slug)
        for seeded in festival.checkinLists {
            let list = try #require(lists.first { $0.id == seeded.id })
            #expect(list.name == seeded.name && list.includePending == seeded.includePending && list.allProducts == seeded.allProducts)
            #expect(list.rules.isEmpty == (seeded.rules == nil), "\(seeded.name)")
        }
        let revoked = try await pretix.revokedSecrets(event: festival.slug).map(\.secret)
        #expect(revoked == (try festival.position(.canceled).revokedSecrets))
        let blocked = try await pretix.blockedSecrets(event: festival.slug)
        #expect(blocked.map(\.secret) == [try festival.position(.blocked).secret] && blocked.allSatisfy { $0.blocked == true })

        // Every seeded position, with what the door needs of it.
        for event in [conference, festival] {
            let download = try await pretix.downloadOrders(event: event.slug)
            #expect(download.cursor.isComplete && download.pages == 1)
            let positions = Dictionary(uniqueKeysWithValues: download.orders.flatMap { order in order.positions.map { ($0.id, (order, $0)) } })
            for seeded in event.positions {
                guard let (order, position) = positions[seeded.id] else { Issue.record("\(event.slug): position \(seeded.id) (\(seeded.scenario)) not downloaded"); continue }
                #expect(position.secret == seeded.secret && order.code == seeded.order && order.status.rawValue == seeded.orderStatus.rawValue)
                #expect(position.attendeeName == seeded.attendeeName && position.company == seeded.company && position.item == seeded.item)
                #expect(position.addonTo == seeded.addonTo && (position.blocked ?? []) == (seeded.blocked ?? []))
                #expect(position.validFrom?.timestamp == seeded.validFrom.map(Timestamp.init) && position.validUntil?.timestamp == seeded.validUntil.map(Timestamp.init))
            }
        }
        // The bulk event pages, 50 orders a page.
        let big = try server.facts.big
        let bulk = try await pretix.downloadOrders(event: big.slug)
        #expect(bulk.pages == 3 && bulk.cursor.isComplete)
        #expect(Set(bulk.orders.flatMap(\.positions).map(\.secret)) == Set(big.positions(.bulk).map(\.secret)))

        // A sale after the download comes with the next delta, and little else does.
        let first = try await pretix.downloadOrders(event: conference.slug)
        let late = try await server.placeOrder(event: conference.slug, item: try conference.item("General admission").id, attendee: "Late Comer")
        let delta = try await pretix.downloadOrders(event: conference.slug, from: first.cursor)
        #expect(delta.orders.flatMap(\.positions).contains { $0.secret == late.secret && $0.attendeeName == "Late Comer" })
        #expect(delta.orders.count < first.orders.count && delta.cursor.since != first.cursor.since)
        let quiet = try await pretix.downloadOrders(event: conference.slug, from: delta.cursor)
        #expect(!quiet.orders.contains { $0.code == late.order }, "what a delta brought is not sent again")
    }

    @Test func anInterruptedFirstDownloadResumesAfterTheLastOrderItHad() async throws {
        let server = try server
        let (pretix, _) = try await SharedPretix.newDevice("Resumer")
        let big = try server.facts.big
        let first = try await pretix.ordersPage(event: big.slug, cursor: .fresh)
        #expect(first.orders.count == 50 && first.next != nil && !first.cursor.isComplete)

        // pretix goes away between two pages: the station keeps the first page and its cursor.
        try server.stop()
        do {
            _ = try await pretix.ordersPage(event: big.slug, cursor: first.cursor, next: first.next)
            Issue.record("a stopped pretix answered")
        } catch {
            #expect(error.isTransient && error.description.contains("keeps working offline"), "\(error)")
        }
        try server.resume()

        // Back: the download resumes after the last order it had, not from the start.
        let rest = try await pretix.downloadOrders(event: big.slug, from: first.cursor)
        #expect(rest.orders.count == 71, "orders 50 to 120, the 50th again (created at the same time or after)")
        #expect(rest.cursor.isComplete && rest.cursor.since == first.cursor.since, "the delta starts from the interrupted download's first page")
        let all = Set((first.orders + rest.orders).flatMap(\.positions).map(\.secret))
        #expect(all == Set(big.positions(.bulk).map(\.secret)))
    }

    @Test func aScanIsRedeemedOnlineAndAnnulledByItsNonce() async throws {
        let server = try server
        let (pretix, _) = try await SharedPretix.newDevice("Redeemer")
        let festival = try server.facts.festival
        let list = try festival.list("Open now").id
        let ticket = festival.positions(.paid)[2].secret
        let nonce = PretixNonce.random()
        let scan = PretixScan(secret: ticket, nonce: nonce, datetime: PretixTime(.now()))

        guard case .ok(let admitted) = try await pretix.redeem(scan, lists: [list], questionsSupported: true) else { Issue.record("not admitted"); return }
        #expect(admitted.position?.attendeeName == "Festival Guest 3" && admitted.position?.checkins.isEmpty == true)
        let again = try await pretix.redeem(PretixScan(secret: ticket, nonce: .random(), datetime: PretixTime(.now())), lists: [list], questionsSupported: true)
        #expect(again.outcome == "already_redeemed")
        let unknown = try await pretix.redeem(PretixScan(secret: "no-such-ticket", nonce: .random(), datetime: PretixTime(.now())), lists: [list], questionsSupported: true)
        #expect(unknown == .refused(.invalid, explanation: nil, position: nil))

        #expect(try await pretix.annul(nonce: .random(), lists: [list]) == .unknownNonce)
        #expect(try await pretix.annul(nonce: nonce, lists: [list]) == .annulled)
        guard case .refused(let why) = try await pretix.annul(nonce: nonce, lists: [list]) else { Issue.record("annulled twice"); return }
        #expect(why.contains("Cannot annul"))
        let afterAnnul = try await pretix.redeem(PretixScan(secret: ticket, nonce: .random(), datetime: PretixTime(.now())), lists: [list], questionsSupported: true)
        #expect(afterAnnul.outcome == "ok", "the annulled entry no longer counts")
    }

    @Test func queuedScansUploadOnceWithTheirOriginalTimesAndPretixCountsThem() async throws {
        let server = try server
        let (pretix, device) = try await SharedPretix.newDevice("Uploader")
        let big = try server.facts.big
        let entrance = try big.list("Entrance").id
        let tickets = Array(big.positions(.bulk).prefix(6))
        let scanned = Timestamp.now().adding(milliseconds: -10 * 60_000)

        // Six offline admissions, each sent twice (an answer lost on the way): recorded once each.
        var scans: [PretixScan] = []
        for (index, ticket) in tickets.enumerated() {
            scans.append(PretixScan(secret: ticket.secret, nonce: .random(), datetime: PretixTime(scanned.adding(milliseconds: Int64(index) * 1_000))))
        }
        for scan in scans + scans {
            #expect(try await pretix.upload(scan, event: big.slug, list: entrance) == .recorded)
        }
        let recorded = try await server.checkIns(event: big.slug)
        for (ticket, scan) in zip(tickets, scans) {
            let rows = recorded.filter { $0.position == ticket.id }
            #expect(rows.count == 1, "\(ticket.secret): \(rows.count) check-ins")
            let recordedAt = try #require(rows.first?.datetime)
            #expect(abs(recordedAt.timeIntervalSince(scan.datetime.timestamp.date)) < 0.002, "the scan's own time, not the upload's")
            #expect(rows.first?.deviceID == device.deviceID && rows.first?.successful == true)
        }

        // pretix's refusal is an answer: dropped, never retried (pretix logged it as a failed check-in itself).
        let unknown = PretixScan(secret: "not-a-ticket", nonce: .random(), datetime: PretixTime(scanned))
        #expect(try await pretix.upload(unknown, event: big.slug, list: entrance) == .refused(.invalid, explanation: nil))
        func refusals() async throws -> [KioskTestSupport.PretixCheckIn] {
            try await server.checkIns(event: big.slug).filter { !$0.successful && $0.deviceID == device.deviceID }
        }
        #expect(try await refusals().count == 1)

        // A refused scan and a printed badge, each sent twice with one key: recorded once.
        let failed = PretixFailedCheckIn(scanned: "GARBAGE-\(UUID().uuidString.prefix(8))", reason: .invalid, datetime: PretixTime(scanned),
                                         type: .entry, nonce: .random())
        let failedKey = PretixNonce.random()
        let printedKey = PretixNonce.random()
        for _ in 0..<2 {
            #expect(try await pretix.upload(failed, event: big.slug, list: entrance, idempotencyKey: failedKey) == .done)
            #expect(try await pretix.uploadPrintLog(position: tickets[0].id, event: big.slug, datetime: PretixTime(scanned), idempotencyKey: printedKey) == .done)
        }
        let reported = try await refusals()
        #expect(reported.count == 2 && reported.allSatisfy { $0.errorReason == "invalid" }, "\(reported)")
        let orders = try await pretix.downloadOrders(event: big.slug).orders
        let printed = orders.flatMap(\.positions).first { $0.id == tickets[0].id }?.printLogs ?? []
        #expect(printed.count == 1 && printed.first?.type == "badge" && printed.first?.deviceID == device.deviceID)
    }

    @Test func aRevokedDeviceIsToldSoAndAProfileIsHonoured() async throws {
        let server = try server
        let (pretix, device) = try await SharedPretix.newDevice("To be revoked")
        _ = try await pretix.info()
        try server.revokeDevice(device.deviceID)
        await #expect(throws: PretixError.deviceRevoked) { _ = try await pretix.info() }
        await #expect(throws: PretixError.deviceRevoked) { _ = try await pretix.ordersPage(event: "conference", cursor: .fresh) }
        let scan = PretixScan(secret: "x", nonce: .random(), datetime: PretixTime(.now()))
        await #expect(throws: PretixError.deviceRevoked) { _ = try await pretix.redeem(scan, lists: [1], questionsSupported: false) }

        // "Online, no orders": the station does not ask for orders; were it to, pretix says no.
        let (desk, deskDevice) = try await SharedPretix.newDevice("Desk", profile: "pretixscan_online_noorders")
        #expect(deskDevice.securityProfile == .pretixscanOnlineNoOrders)
        await #expect(throws: PretixError.notAllowedByProfile(profile: "pretixscan_online_noorders", what: "downloading the orders (an offline roster)")) {
            _ = try await desk.ordersPage(event: "conference", cursor: .fresh)
        }
        var claimed = deskDevice
        claimed.securityProfile = .pretixscan
        let unguarded = try PretixClient(server: desk.server, device: claimed)
        await #expect(throws: PretixError.notAllowedByProfile(profile: "pretixscan", what: "the orders of conference")) {
            _ = try await unguarded.ordersPage(event: "conference", cursor: .fresh)
        }
        #expect(try await desk.checkInLists(event: "conference").count == 3, "the catalog stays allowed")
    }
}
