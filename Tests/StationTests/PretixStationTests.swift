import CheckInCore
import Foundation
import KioskStore
import KioskTestSupport
import PretixClient
import PretixSync
import PrintTestSupport
import Testing

/// The station as a pretix device, through real `kiosk` processes against a real pretix 2026.8
/// (`Kiosk/pretix-server.sh`): connected with a device token, its roster is the check-in list's
/// orders; an order placed in pretix after the download is admitted after the next sync; its
/// check-ins reach pretix once each, and a running station learns another device's check-in.
@Suite(.hangGuard, .tags(.endToEnd), .endToEnd, .blocking, .serialized,
       .enabled(if: PretixServer.canRun, "pretix tests skipped: \(PretixServer.missing ?? "")"))
struct PretixStationTests {
    static let server: Result<PretixServer, any Error> = Result { try PretixServer(orders: 60) }
    let kiosk = BuiltProducts.executable("kiosk")

    /// A new device of the organizer's connected to the conference's "Paid only" list.
    func connect(_ name: String, data: String) async throws -> (server: PretixServer, list: Int) {
        let server = try Self.server.get()
        let list = try #require(try server.facts.conference.checkinLists.first { $0.name == "Paid only" })
        let device = try await server.addDevice(name: name)
        let connected = try run(kiosk, ["pretix", "connect", "--url", server.url, "--token", device.initializationToken,
                                        "--event", "conference", "--list", "\(list.id)", "--json", "--data-dir", data])
        try #require(connected.status == 0, "\(connected.stderr)")
        let answer = try connected.json()
        #expect((answer["list"] as? [String: Any])?["name"] as? String == "Paid only")
        #expect((answer["orders"] as? Int ?? 0) > 5)
        return (server, list.id)
    }

    /// A new device of the organizer's, named `name`, connected to the conference's list `listName`.
    func connectDevice(_ name: String, list listName: String, data: String) async throws -> (device: PretixFacts.Device, list: PretixFacts.CheckInList) {
        let server = try Self.server.get()
        let list = try #require(try server.facts.conference.checkinLists.first { $0.name == listName })
        let device = try await server.addDevice(name: name)
        let connected = try run(kiosk, ["pretix", "connect", "--url", server.url, "--token", device.initializationToken,
                                        "--event", "conference", "--list", "\(list.id)", "--data-dir", data])
        try #require(connected.status == 0, "\(connected.stderr)")
        return (device, list)
    }

    /// Another pretix device at another door (pretix's own API as that device).
    func otherDoor(_ server: PretixServer) async throws -> PretixAPI {
        let other = try await server.addDevice(name: "Other door")
        let identity = PretixDeviceIdentity(hardwareBrand: "Test", hardwareModel: "Other door", osName: "Linux", osVersion: "Debian 12",
                                            softwareVersion: "0.0-test")
        let device = try await PretixClient(server: PretixClient.parseServerURL(server.url)).initialize(token: other.initializationToken, identity: identity)
        return server.device(token: device.apiToken)
    }

    /// A new device of the organizer's, named `name`, connected to the big event (one list):
    /// its id in pretix.
    @discardableResult
    func connectToBig(_ name: String, data: String) async throws -> Int {
        let server = try Self.server.get()
        let device = try await server.addDevice(name: name)
        let connected = try run(kiosk, ["pretix", "connect", "--url", server.url, "--token", device.initializationToken, "--event", "big",
                                        "--data-dir", data])
        try #require(connected.status == 0, "\(connected.stderr)")
        return device.id
    }

    /// The software version pretix shows for device `id` (the organizer's device list).
    func softwareVersion(_ server: PretixServer, device id: Int) async throws -> String? {
        let answer = try await server.organizer.get("/api/v1/organizers/\(server.facts.organizer.slug)/devices/\(id)/")
        return (try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["software_version"] as? String
    }

    @Test func aNewVersionOfTheStationIsToldToPretixAtItsNextSyncOnce() async throws {
        let server = try Self.server.get()
        let directory = TemporaryDirectory("pretix-station-version")
        defer { directory.remove() }
        let data = directory.appending("station").path
        let list = try #require(try server.facts.conference.checkinLists.first { $0.name == "Paid only" })
        let device = try await server.addDevice(name: "Station V")
        // Connected by an earlier version of the station (as its kiosk pretix connect did).
        var earlier = PretixDeviceIdentity.thisStation
        earlier.softwareVersion = "0.0.1-earlier"
        _ = try await PretixSync.connect(database: try KioskDatabase.open(dataDirectory: URL(fileURLWithPath: data)), server: server.url,
                                         token: device.initializationToken, event: "conference", list: list.id, identity: earlier)
        #expect(try await softwareVersion(server, device: device.id) == "0.0.1-earlier")

        // This version's first sync tells pretix, and keeps that it did.
        let synced = try run(kiosk, ["pretix", "sync", "--data-dir", data])
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(try await softwareVersion(server, device: device.id) == ProductVersion.current)
        #expect(synced.stdout.contains("Told pretix this station now runs version \(ProductVersion.current)."), "\(synced.stdout)")
        let again = try run(kiosk, ["pretix", "sync", "--json", "--data-dir", data])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(((try again.json())["pulled"] as? [String: Any])?["told_version"] is NSNull, "once: \(again.stdout)")
    }

    func checkIn(_ code: String, data: String) throws -> (status: Int32, decision: String?) {
        let result = try run(kiosk, ["checkin", code, "--json", "--data-dir", data])
        return (result.status, (try? result.json())?["decision"] as? String)
    }

    @Test func theDoorDecidesPretixsTicketsAndALateOrderIsAdmittedAfterTheNextSync() async throws {
        let directory = TemporaryDirectory("pretix-station")
        defer { directory.remove() }
        let data = directory.appending("station").path
        let (server, list) = try await connect("Station A", data: data)
        let conference = try server.facts.conference

        // What pretix would do at a "Paid only" list, decided here without asking it.
        #expect(try checkIn(conference.position(.paid).secret, data: data).status == 0)
        #expect([10, 11].contains(try checkIn(conference.position(.paid).secret, data: data).status), "a second entry: a repeat or already in")
        // Admitted at another pretix door: known here after the next sync.
        let other = try await otherDoor(server)
        let attention = try conference.position(.attention)
        #expect(try await other.redeem(organizer: server.facts.organizer.slug, secret: attention.secret, list: list).status == "ok")
        // Refused, with pretix's reason in the words staff read.
        for (scenario, reason, status, decision) in [(PretixFacts.Scenario.canceled, "canceled", 15, "revoked"), (.expired, "expired", 15, "revoked"),
                                                     (.blocked, "blocked", 15, "revoked"), (.unapproved, "unapproved", 17, "unapproved"),
                                                     (.pending, "unpaid", 16, "unpaid")] {
            let result = try run(kiosk, ["checkin", conference.position(scenario).secret, "--json", "--data-dir", data])
            #expect(result.status == Int32(status), "\(scenario): refused")
            #expect((try? result.json())?["decision"] as? String == decision, "\(scenario): \(result.stdout)")
            #expect((try? result.json())?["refusal"] as? String == reason, "\(scenario): \(result.stdout)")
        }
        let words = try run(kiosk, ["checkin", conference.position(.pending).secret, "--data-dir", data])
        #expect(words.stdout.contains("Ticket not valid: the order is not paid yet — please see staff"), "\(words.stdout)")
        #expect(try checkIn(conference.position(.validFromFuture).secret, data: data).status == 14)
        #expect(try checkIn(conference.position(.paid).secret.uppercased(), data: data).status == 12, "pretix's secrets are case-sensitive")

        // An order placed after the download: unknown until the next sync, then admitted.
        let general = try #require(conference.items.first { $0.name == "General admission" })
        let late = try await server.placeOrder(event: "conference", item: general.id, attendee: "Lee Late")
        #expect(try checkIn(late.secret, data: data).status == 12)
        let synced = try run(kiosk, ["pretix", "sync", "--json", "--data-dir", data])
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(((try synced.json())["pushed"] as? [String: Any])?["recorded"] as? Int == 1, "the paid guest's check-in went up")
        #expect(try checkIn(late.secret, data: data).status == 0)
        #expect([10, 11].contains(try checkIn(attention.secret, data: data).status), "another door's admission is known here after the sync")

        // Both admissions are in pretix once each, however often the station syncs.
        for _ in 0..<2 { #expect(try run(kiosk, ["pretix", "sync", "--data-dir", data]).status == 0) }
        let recorded = try await server.checkIns(event: "conference").filter { $0.list == list && $0.successful }
        #expect(recorded.filter { $0.position == (try? conference.position(.paid).id) }.count == 1)
        #expect(recorded.filter { $0.position == late.id }.count == 1)
        let status = try run(kiosk, ["status", "--json", "--data-dir", data]).json()
        #expect((status["sync"] as? [String: Any])?["pending"] as? Int == 0, "\(status)")
    }

    @Test func refusedScansAreListedAmongPretixsFailedCheckInsOnceEachWithPretixsReason() async throws {
        let server = try Self.server.get()
        let conference = try server.facts.conference
        let directory = TemporaryDirectory("pretix-station-refused")
        defer { directory.remove() }
        let data = directory.appending("station").path
        let (device, list) = try await connectDevice("Station R", list: "Paid only", data: data)

        // Each refusal at the door, with the reason pretix's own devices would give.
        let expected: [(code: String, reason: String)] = [
            (try conference.position(.canceled).secret, "canceled"), (try conference.position(.expired).secret, "canceled"),
            (try conference.position(.blocked).secret, "blocked"), (try conference.position(.pending).secret, "unpaid"),
            (try conference.position(.unapproved).secret, "unapproved"), (try conference.position(.validUntilPast).secret, "invalid_time"),
            ("NOT-A-PRETIX-TICKET", "invalid"),
        ]
        for (code, _) in expected { #expect(try checkIn(code, data: data).status != 0, "\(code) refused") }
        // Sent with the check-ins; a second sync, or one killed and run again, sends none twice.
        let synced = try run(kiosk, ["pretix", "sync", "--json", "--data-dir", data])
        #expect(synced.status == 0, "\(synced.stderr)")
        let pushed = try #require((try synced.json())["pushed"] as? [String: Any])
        #expect(pushed["reported"] as? Int == expected.count && pushed["recorded"] as? Int == 0, "\(pushed)")
        #expect(try run(kiosk, ["pretix", "sync", "--data-dir", data]).status == 0)
        let failed = try await server.checkIns(event: "conference").filter { $0.deviceID == device.id && !$0.successful }
        #expect(failed.count == expected.count, "\(failed.map { ($0.errorReason ?? "", $0.position ?? 0) })")
        #expect(failed.sorted { $0.datetime < $1.datetime }.compactMap(\.errorReason) == expected.map(\.reason))
        #expect(failed.allSatisfy { $0.list == list.id })
        #expect(failed.filter { $0.position == nil }.count == 1, "pretix links each known ticket's refusal to its position")
        let status = try run(kiosk, ["status", "--json", "--data-dir", data]).json()
        #expect((status["sync"] as? [String: Any])?["pending"] as? Int == 0, "\(status)")
    }

    @Test func aGuestWhoLeftComesBackInWherePretixAllowsEntryAfterExitAndPretixRecordsEachMovement() async throws {
        let server = try Self.server.get()
        let conference = try server.facts.conference
        let list = try #require(try conference.checkinLists.first { $0.name == "Paid only" })
        #expect(list.allowEntryAfterExit && !list.allowMultipleEntries, "pretix's default: one stay at a time")
        let general = try #require(conference.items.first { $0.name == "General admission" })
        let guest = try await server.placeOrder(event: "conference", item: general.id, attendee: "Ella Exit")
        let directory = TemporaryDirectory("pretix-station-exit")
        defer { directory.remove() }
        let data = directory.appending("station").path
        _ = try await connect("Station E", data: data)

        #expect(try checkIn(guest.secret, data: data).status == 0)
        let exit = try run(kiosk, ["checkin", guest.secret, "--exit", "--json", "--data-dir", data])
        #expect(exit.status == 0, "\(exit.stdout)")
        sleep(1)
        #expect(try checkIn(guest.secret, data: data).status == 0, "left, so back in")
        #expect(try checkIn(guest.secret, data: data).status == 10, "the same entry seen again, not a fourth movement")
        #expect(try run(kiosk, ["pretix", "sync", "--data-dir", data]).status == 0)
        let recorded = try await server.checkIns(event: "conference", position: guest.id).filter { $0.list == list.id }
        #expect(recorded.filter(\.successful).sorted { $0.datetime < $1.datetime }.map(\.type) == ["entry", "exit", "entry"], "\(recorded)")
    }

    @Test func anUnpaidTicketOnAListThatIncludesPendingOrdersIsAdmittedOnlyWhenStaffTypeAdmit() async throws {
        let server = try Self.server.get()
        let conference = try server.facts.conference
        let main = try #require(try conference.checkinLists.first { $0.name == "Main entrance" })
        #expect(main.includePending)
        let general = try #require(conference.items.first { $0.name == "General admission" })
        let unpaid = try await server.placeOrder(event: "conference", item: general.id, attendee: "Uma Unpaid", status: .pending)
        let paid = try await server.placeOrder(event: "conference", item: general.id, attendee: "Pete Paid")
        let directory = TemporaryDirectory("pretix-station-unpaid")
        defer { directory.remove() }
        let data = directory.appending("station").path
        _ = try await connectDevice("Station U", list: "Main entrance", data: data)

        // pretix leaves it to the door: refused until staff say so.
        let asked = try run(kiosk, ["checkin", unpaid.secret, "--json", "--data-dir", data])
        #expect(asked.status == 16, "\(asked.stdout)")
        #expect((try? asked.json())?["admit_anyway"] as? Bool == true, "\(asked.stdout)")
        #expect((try? asked.json())?["refusal"] as? String == "unpaid", "\(asked.stdout)")

        // At the console: the question waits for the word; a ticket code typed meanwhile is a ticket code.
        let console = try TmuxConsole(["--data-dir", data, "--printer", "none"], directory: directory, columns: 100, rows: 30)
        defer { console.stop() }
        try console.waitFor("Scan your ticket")
        try console.type(unpaid.secret)
        try console.send("Enter")
        try console.waitFor("type ADMIT, then Enter")
        try console.type(paid.secret)
        try console.send("Enter")
        try console.waitFor("Welcome, Pete Paid")
        try console.waitForAbsence(of: "type ADMIT")
        try console.type(unpaid.secret)
        try console.send("Enter")
        try console.waitFor("type ADMIT, then Enter")
        try console.type("admit")
        try console.send("Enter")
        try console.waitFor("Welcome, Uma Unpaid")
        try console.waitFor("0 pending sync", seconds: 30)

        let recorded = try await server.checkIns(event: "conference", position: unpaid.id).filter { $0.list == main.id }
        #expect(recorded.filter(\.successful).count == 1, "admitted once, as staff decided: \(recorded)")
        #expect(recorded.filter { !$0.successful }.map(\.errorReason) == ["unpaid", "unpaid", "unpaid"], "each time the door asked is in pretix's report")
    }

    /// The badge print logs pretix keeps for position `id` of the conference: (device, type) each.
    func printLogs(_ server: PretixServer, position id: Int) async throws -> [(device: Int?, type: String)] {
        let answer = try await server.organizer.get("/api/v1/organizers/\(server.facts.organizer.slug)/events/conference/orderpositions/\(id)/")
        let logs = (try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["print_logs"] as? [[String: Any]] ?? []
        return logs.map { ($0["device_id"] as? Int, $0["type"] as? String ?? "") }
    }

    @Test func aBadgePrintedHereIsInPretixsPrintLogAndPrintOnceSkipsABadgeAnotherDevicePrinted() async throws {
        let server = try Self.server.get()
        let conference = try server.facts.conference
        let general = try #require(conference.items.first { $0.name == "General admission" })
        let printedHere = try await server.placeOrder(event: "conference", item: general.id, attendee: "Pia Printed")
        let printedThere = try await server.placeOrder(event: "conference", item: general.id, attendee: "Otto Other")
        // Another pretix device printed Otto's badge already.
        let other = try await otherDoor(server)
        let logged = try await other.post("/api/v1/organizers/\(server.facts.organizer.slug)/events/conference/orderpositions/\(printedThere.id)/printlog/",
                                          ["source": "pretixSCAN", "type": "badge", "datetime": "2026-11-28T08:00:00Z"])
        try #require(logged.status == 201, "\(String(decoding: logged.body, as: UTF8.self))")

        let rig = try CupsRig(queues: ["badge"])
        defer { rig.stop() }
        let directory = TemporaryDirectory("pretix-station-printlog")
        defer { directory.remove() }
        let data = directory.appending("station").path
        let device = try await connectDevice("Station P", list: "Paid only", data: data).device
        let configuration = directory.appending("kiosk.conf")
        try "printer = badge\nprint_policy = once\n".write(to: configuration, atomically: true, encoding: .utf8)
        let station = try StationProcess(["run", "--headless", "--config", configuration.path, "--data-dir", data], headless: true,
                                         environment: ["CUPS_SERVER": rig.server], log: directory.appending("station.log"))
        defer { station.kill9() }
        station.wait(limit: 60) { lines in lines.contains { $0.contains(#""event":"ready""#) } }

        station.send(printedHere.secret)
        station.wait(limit: 60) { lines in lines.contains { $0.contains(#""event":"print_state""#) && $0.contains(#""state":"printed""#) } }
        station.send(printedThere.secret)
        station.wait(limit: 30) { lines in lines.filter { $0.contains(#""event":"decision""#) }.count == 2 }
        let decisions = station.output.filter { $0.contains(#""event":"decision""#) }
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(decisions.count == 2 && decisions.allSatisfy { $0["decision"] as? String == "admitted" }, "\(decisions)")
        #expect(decisions.last?["badge"] == nil || decisions.last?["badge"] is NSNull, "print once: another device printed Otto's badge: \(decisions)")
        #expect(rig.printLog("badge").count == 1, "one badge came out: \(rig.printLog("badge"))")

        // pretix learns of the badge printed here, once, as this device's.
        try await eventuallyAsync(limit: 30) { try await printLogs(server, position: printedHere.id).contains { $0.device == device.id } }
        #expect(try await printLogs(server, position: printedHere.id).map(\.type) == ["badge"])
        #expect(try await printLogs(server, position: printedThere.id).count == 1, "nothing printed here for Otto")
        station.kill9()
        #expect(try run(kiosk, ["pretix", "sync", "--data-dir", data]).status == 0)
        #expect(try await printLogs(server, position: printedHere.id).count == 1, "sent once")
    }

    @Test func fiftyCheckInsMadeWhilePretixIsDownReachItOnceEachInOrderAcrossAKill() async throws {
        let directory = TemporaryDirectory("pretix-station-offline")
        defer { directory.remove() }
        let data = directory.appending("station").path
        let server = try Self.server.get()
        let big = try server.facts.big
        try await connectToBig("Station D", data: data)

        try server.stop()
        let guests = Array(big.positions(.bulk).prefix(50))
        for guest in guests { #expect(try checkIn(guest.secret, data: data).status == 0, "\(guest.attendeeName)") }
        let offline = try run(kiosk, ["pretix", "sync", "--data-dir", data])
        #expect(offline.status == 69 && offline.stderr.contains("keeps working offline"), "\(offline.stderr)")
        try server.resume()

        // Killed in the middle of sending them, then run again: each reaches pretix once.
        let killed = try StationProcess(["pretix", "sync", "--data-dir", data])
        usleep(400_000)
        killed.kill9()
        #expect(try run(kiosk, ["pretix", "sync", "--data-dir", data]).status == 0)
        let list = try #require(big.checkinLists.first).id
        let recorded = try await server.checkIns(event: "big").filter { $0.list == list && $0.successful }
        #expect(recorded.count == 50)
        #expect(Set(recorded.compactMap(\.position)) == Set(guests.map(\.id)), "one each")
        // pretix made them in scan order, each with its scan time.
        #expect(recorded.sorted { $0.created < $1.created }.map(\.datetime) == recorded.map(\.datetime).sorted())
    }

    @Test func aDeviceRevokedInPretixTakesItsGuestsOffTheStationAndSaysSo() async throws {
        let directory = TemporaryDirectory("pretix-station-revoked")
        defer { directory.remove() }
        let server = try Self.server.get()
        // The big event's one list, and tickets no other test scans.
        let big = try server.facts.big
        let ada = big.positions(.bulk)[55]

        // A running station: revoked in pretix, it wipes the guests within a round and says so.
        let running = directory.appending("running").path
        let door = try await connectToBig("Station E", data: running)
        #expect(try checkIn(ada.secret, data: running).status == 0)
        let station = try StationProcess(["run", "--headless", "--no-demo", "--printer", "none", "--data-dir", running], headless: true)
        station.wait { lines in lines.contains { $0.contains("\"event\":\"ready\"") } }
        try server.revokeDevice(door)
        station.wait(limit: 30) { lines in lines.contains { $0.contains("pretix_revoked") } }
        station.kill9()
        let status = try run(kiosk, ["status", "--json", "--data-dir", running]).json()
        #expect((status["roster"] as? [String: Any])?["guests"] as? Int == 0, "\(status)")
        #expect(((status["pretix"] as? [String: Any])?["ended"] as? String)?.contains("pretix revoked this station's device") == true, "\(status)")
        #expect(try checkIn(ada.secret, data: running).status == 12, "the guests are gone")

        // kiosk pretix sync meets the revocation the same way.
        let synced = directory.appending("synced").path
        try server.revokeDevice(try await connectToBig("Station F", data: synced))
        let refused = try run(kiosk, ["pretix", "sync", "--data-dir", synced])
        #expect(refused.status == 77 && refused.stderr.contains("were removed from this station"), "\(refused.stderr)")
        #expect(try checkIn(ada.secret, data: synced).status == 12)
    }

    @Test func aDisconnectSendsWhatIsQueuedAndRefusesToStrandCheckIns() async throws {
        let directory = TemporaryDirectory("pretix-station-disconnect")
        defer { directory.remove() }
        let data = directory.appending("station").path
        let server = try Self.server.get()
        try await connectToBig("Station G", data: data)
        try server.stop()
        #expect(try checkIn(try server.facts.big.positions(.bulk)[56].secret, data: data).status == 0)
        let refused = try run(kiosk, ["pretix", "disconnect", "--data-dir", data])
        #expect(refused.status == 1 && refused.stderr.contains("not in pretix yet"), "\(refused.stderr)")
        try server.resume()
        let done = try run(kiosk, ["pretix", "disconnect", "--data-dir", data])
        #expect(done.status == 0 && done.stdout.contains("Disconnected from pretix"), "\(done.stderr)")
        #expect(try run(kiosk, ["pretix", "sync", "--data-dir", data]).status == 78, "not connected any more")
    }

    @Test func aTokenIsSpentOnceSoChoosingTheListAgainNeedsNone() async throws {
        let directory = TemporaryDirectory("pretix-station-choose")
        defer { directory.remove() }
        let data = directory.appending("station").path
        let server = try Self.server.get()
        let device = try await server.addDevice(name: "Station C")
        // The conference has three lists: pretix took the token, the station says which to choose.
        let first = try run(kiosk, ["pretix", "connect", "--url", server.url, "--token", device.initializationToken, "--event", "conference",
                                    "--data-dir", data])
        #expect(first.status == 78)
        #expect(first.stderr.contains("choose one with --list (no new token needed") && first.stderr.contains("(Paid only)"), "\(first.stderr)")
        let paidOnly = try #require(try server.facts.conference.checkinLists.first { $0.name == "Paid only" })
        let second = try run(kiosk, ["pretix", "connect", "--event", "conference", "--list", "\(paidOnly.id)", "--data-dir", data])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("Connected to pretix as device Station C"), "\(second.stdout)")
        #expect(try checkIn(try server.facts.conference.position(.paid).secret, data: data).status != 12)
        // The device and link are sealed: no token in the data directory in clear.
        for name in ["pretix.json", "pretix-device.json"] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: data).appendingPathComponent(name))
            #expect(!String(decoding: bytes, as: UTF8.self).contains("api_token") && !String(decoding: bytes, as: UTF8.self).contains("apiToken"), "\(name)")
        }
    }

    @Test func aRunningStationSendsItsCheckInsAndLearnsAnotherDevicesWithinSeconds() async throws {
        let directory = TemporaryDirectory("pretix-station-run")
        defer { directory.remove() }
        let data = directory.appending("station").path
        let (server, list) = try await connect("Station B", data: data)
        let conference = try server.facts.conference
        let station = try StationProcess(["run", "--headless", "--no-demo", "--printer", "none", "--data-dir", data], headless: true)
        defer { station.kill9() }
        station.wait { lines in lines.contains { $0.contains("\"event\":\"ready\"") } }

        // Scanned here: in pretix within seconds, without anyone pressing sync.
        let turing = try #require(conference.positions(.multi).first { $0.attendeeName == "Alan Turing" && $0.addonTo == nil })
        station.send(turing.secret)
        station.wait(limit: 30) { lines in lines.contains { $0.contains("\"event\":\"decision\"") && $0.contains("admitted") } }
        try await eventuallyAsync(limit: 30) {
            try await server.checkIns(event: "conference").contains { $0.list == list && $0.position == turing.id && $0.successful }
        }

        // Admitted at another pretix door: this station refuses it as already in, within seconds.
        let clarke = try #require(conference.positions(.multi).first { $0.attendeeName == "Joan Clarke" })
        let redeemed = try await otherDoor(server).redeem(organizer: server.facts.organizer.slug, secret: clarke.secret, list: list)
        #expect(redeemed.status == "ok", "\(redeemed)")
        // The station pulls every 3 s: well within 8 s on a loaded machine.
        try await Task.sleep(for: .seconds(8))
        station.send(clarke.secret)
        station.wait(limit: 30) { lines in lines.contains { $0.contains("\"event\":\"decision\"") && $0.contains("Joan Clarke") } }
        let decision = try #require(station.output.last { $0.contains("\"event\":\"decision\"") && $0.contains("Joan Clarke") })
        #expect(decision.contains("already_checked_in") || decision.contains("duplicate"), "\(decision)")
    }
}

extension PretixStationTests {
    /// A door volunteer's morning at a pretix event, on the real console in tmux: the station
    /// connected to the "Paid only" list admits a paid ticket (a name full of escape codes),
    /// refuses an unpaid one with pretix's reason, keeps working while pretix is down (a check-in
    /// and its undo queued), and once pretix is back both reach it: the admission recorded, the
    /// undone one annulled. Tickets no other test of the suite scans.
    @Test func aPretixDayAtTheConsoleAdmitsRefusesWorksOfflineAndCatchesUp() async throws {
        let server = try Self.server.get()
        let conference = try server.facts.conference
        let list = try #require(conference.checkinLists.first { $0.name == "Paid only" })
        let directory = TemporaryDirectory("pretix-console")
        defer { directory.remove() }
        let data = directory.appending("station").path
        _ = try await connect("Door 3", data: data)

        let console = try TmuxConsole(["--data-dir", data, "--printer", "none"], directory: directory, columns: 100, rows: 30)
        defer { console.stop() }
        try console.waitFor("Scan your ticket")
        try console.waitFor("pretix online · Paid only")

        let mallory = try conference.position(.hostileName)
        try console.type(mallory.secret)
        try console.send("Enter")
        let welcome = try console.waitFor("Welcome, Mallory")
        #expect(!welcome.contains("\u{1B}") && !welcome.contains("owned"), "the name's escape codes never reach the terminal")
        let failedBefore = Set(try await server.checkIns(event: "conference").filter { !$0.successful }.map(\.id))
        try console.type(try conference.position(.pending).secret)
        try console.send("Enter")
        try console.waitFor("Ticket not valid: the order is not paid yet — please see staff")

        // pretix goes down: the door goes on, the check-in and its undo wait in order.
        try await eventuallyInPretix(server, list: list.id) { checkIns in
            checkIns.contains { $0.position == mallory.id && $0.successful }
                && checkIns.contains { !failedBefore.contains($0.id) && $0.errorReason == "unpaid" }
        }
        try server.stop()
        let workshop = try #require(conference.positions(.multi).first { $0.attendeeName == "Alan Turing" && $0.addonTo != nil })
        try console.type(workshop.secret)
        try console.send("Enter")
        try console.waitFor("Welcome, Alan Turing")
        try console.waitFor("1 pending sync")
        try console.waitFor("pretix unreachable · Paid only — working offline", seconds: 40)
        try console.send("F6")
        try console.waitFor("Check-in undone: Alan Turing")
        try console.waitFor("2 pending sync")

        // Back: both go up, in order; pretix keeps Mallory's admission and annuls the workshop's.
        try server.resume()
        try console.waitFor("pretix online · Paid only", seconds: 60)
        let screen = try console.waitFor("0 pending sync", seconds: 30)
        #expect(!screen.contains("refused by"), "pretix took both, the annul too: \(screen)")
        let recorded = try await server.checkIns(event: "conference").filter { $0.list == list.id }
        #expect(recorded.filter { $0.position == mallory.id && $0.successful }.count == 1)
        #expect(!recorded.contains { $0.position == workshop.id && $0.successful }, "the undone check-in was annulled: \(recorded.filter { $0.position == workshop.id })")
    }

    @Test func theConsoleAsksAWorkshopsQuestionsBeforeEntryAndPretixGetsTheAnswers() async throws {
        let server = try Self.server.get()
        let festival = try server.facts.festival
        let directory = TemporaryDirectory("pretix-console-questions")
        defer { directory.remove() }
        let data = directory.appending("station").path
        let (_, list, _) = try await connect("Door Questions", event: "festival", list: "All entrances", data: data)
        let quinn = festival.positions(.questionToAsk)[1]
        let waiver = try #require(festival.questions.first { $0.identifier == "WAIVER" })
        let session = try #require(festival.questions.first { $0.identifier == "SESSION" })

        let console = try TmuxConsole(["--data-dir", data, "--printer", "none"], directory: directory, columns: 100, rows: 30)
        defer { console.stop() }
        try console.waitFor("Scan your ticket")
        try console.enter(quinn.secret, thenWaitFor: "Before entry, ask Quinn Question — question 1 of 3")
        try console.waitFor("I accept the workshop waiver")
        // No is no entry: the form says so and stays on the question.
        try console.enter("n", thenWaitFor: "This must be yes to enter")
        try console.send("BSpace")
        try console.enter("y", thenWaitFor: "Which session do you attend?")
        try console.waitFor("2) Afternoon")
        try console.enter("3", thenWaitFor: "Type the number of one choice, 1 to 2")
        try console.send("BSpace")
        try console.enter("1", thenWaitFor: "Emergency phone")
        // Optional: Enter alone leaves it unanswered, and the guest goes in.
        try console.enter(thenWaitFor: "Welcome, Quinn Question")

        let held = try await server.answers(event: "festival", position: quinn.id, once: waiver.id)
        #expect(held[waiver.id] == "True" && held[session.id] == "Morning", "\(held)")
        let recorded = try await server.checkIns(event: "festival").filter { $0.list == list.id && $0.position == quinn.id && $0.successful }
        #expect(recorded.count == 1)
    }

    func eventuallyInPretix(_ server: PretixServer, list: Int, limit: TimeInterval = 30,
                            _ condition: ([KioskTestSupport.PretixCheckIn]) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(limit)
        while Date() < deadline {
            if condition(try await server.checkIns(event: "conference").filter { $0.list == list }) { return }
            try await Task.sleep(for: .milliseconds(500))
        }
        Issue.record("pretix did not get it within \(limit) s")
    }
}

/// `eventually`, for a condition that awaits.
func eventuallyAsync(limit: TimeInterval, _ condition: () async throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(limit)
    while Date() < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(500))
    }
    Issue.record("not within \(limit) s")
}
