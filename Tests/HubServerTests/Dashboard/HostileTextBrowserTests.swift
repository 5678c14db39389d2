import CheckInCore
import Foundation
import HubAPI
import KioskTestSupport
import Testing

/// Security review F1 in Debian's chromium, driven by Playwright (Tests/HubServerTests/Browser/
/// hostile_test.py), against a real `checkin-hub serve`: text built to slip through escaping
/// that works on grapheme clusters (``HostileText``) goes into every input path the review
/// lists (a roster import's name, company, e-mail, access type and note; a walk-in's name,
/// company, e-mail, station and operator; a check-in's station and operator; a station's name
/// and health report; the guest search through a link; the sign-in page's `next`), and every page
/// that shows it, the live page's server-sent update included, has no element or attribute that
/// came from data. Then the review's two exploits: the one-click organizer account (a walk-in
/// whose markup adopts the page's form token and button, on the guest page and on the review
/// page) and the zero-click `<meta refresh>` station name on the live page.
@Suite(.hangGuard, .serialized, .tags(.endToEnd), .endToEnd, .blocking)
struct HostileTextBrowserTests {
    static let script = BuiltProducts.packageRoot.appendingPathComponent("Tests/HubServerTests/Browser/hostile_test.py")
    static let organizer = (email: "olga@example.org", password: "organizer pass 1", name: "Olga Organizer")

    @Test(.enabled(if: BrowserTools.missing == nil || BrowserTools.required, "browser tests skipped: \(BrowserTools.missing ?? "")"))
    func hostileTextIsShownAsTextOnEveryPageAndInTheLiveUpdate() async throws {
        if let missing = BrowserTools.missing {
            Issue.record("CI=true and the browser tests cannot run: \(missing)")
            return
        }
        let hub = try organizersHub()
        defer { hub.remove() }
        let marks = HostileText.marks
        // The ticket shop's rows: a hostile name, company, e-mail, access type and note each
        // (a NUL makes a file binary, so that mark comes by the API only); a plain guest per mark
        // for the stations to admit.
        var csv = "code,name,email,company,access_type,order,attention\n"
        for (index, mark) in marks.enumerated() where !mark.text.contains("\u{0}") {
            let payload = HostileText.payload(mark.text)
            let fields = [String(format: "HOST%02d", index), payload, HostileText.email(mark.text, index) ?? "host\(index)@example.org", payload,
                          "Type \(index) " + HostileText.short(mark.text), "ORD-\(index)", payload]
            csv += fields.map(Self.csvField).joined(separator: ",") + "\n"
        }
        for index in marks.indices { csv += String(format: "SAFE%02d,Safe Guest %d,safe%d@example.org,,General,,\n", index, index, index) }
        csv += "LIVE01,Live Guest,live@example.org,,General,,\n"
        let event = try hub.addEvent(name: "Hostile Gala", roster: csv, arguments: ["--window-seconds", "1"])
        // An organizer's own event name is shown on every page of the event and in the list.
        let named = try hub.addEvent(name: "Gala " + HostileText.payload("\u{0600}"), roster: "code,name\nN1,Nora\n")

        // Each mark through a station of its own: its registration, a walk-in, a check-in and a health report.
        let base = hub.url, now = Timestamp.now()
        let roster = try await station(hub, device: "dev-roster", name: "Roster reader").get(HubPaths.roster(event: event) + "?cursor=0&limit=5000", as: RosterPage.self)
        func guestID(_ code: String) throws -> String { try #require(roster.guests.first { $0.code == code }?.id, "\(code) was imported") }
        var doors: [HubClient] = []
        for (index, mark) in marks.enumerated() {
            let payload = HostileText.payload(mark.text), device = "dev-\(index)"
            // SQLite (through GRDB) kept text only up to a NUL, PostgreSQL refuses one: the hub
            // refuses it, naming the field, instead of storing a cut name.
            let expected = mark.text.contains("\u{0}") ? 422 : 200
            let door = try await station(hub, device: device, name: payload)
            doors.append(door)
            let walkIn = WalkInUpload(guestID: "walk-\(index)", code: "WALK-\(index)", name: payload, email: HostileText.email(mark.text, index) ?? "",
                                      company: payload, accessTypeID: "general", deviceID: device, station: payload, operatorName: payload,
                                      createdAt: now)
            let walked = try await door.send("POST", HubPaths.walkIns(event: event), json: WalkInBatch(items: [walkIn]))
            #expect(walked.status == expected, "\(mark.label) walk-in: \(String(decoding: walked.data, as: UTF8.self))")
            if expected == 422 { #expect(try HubClient.problem(walked.data).field == "items.0.name") }
            let checkIn = CheckInUpload(key: IdempotencyKey(deviceID: device, guestID: try guestID(String(format: "SAFE%02d", index)),
                                                            scannedAt: now.adding(milliseconds: Int64(-60_000 + index))),
                                        station: payload, operatorName: payload, source: .camera)
            let checked = try await door.send("POST", HubPaths.checkIns(event: event), json: CheckInBatch(items: [checkIn]))
            #expect(checked.status == expected, "\(mark.label) check-in: \(String(decoding: checked.data, as: UTF8.self))")
            let part = StationPart(state: HostileText.short(mark.text), words: payload)
            let report = StationReport(name: payload, version: HostileText.short(mark.text), pending: 1, printer: part, camera: part,
                                       staffName: payload, stationTime: now)
            let reported = try await door.send("PUT", HubPaths.stationReport(event: event, deviceID: device), json: report)
            #expect(reported.status == (expected == 200 ? 204 : 422), "\(mark.label) report: \(String(decoding: reported.data, as: UTF8.self))")
        }
        // A conflict for the review page: two doors admitted SAFE00, 5 s apart.
        let late = CheckInUpload(key: IdempotencyKey(deviceID: "dev-1", guestID: try guestID("SAFE00"), scannedAt: now.adding(milliseconds: -55_000)),
                                 station: HostileText.payload("\u{0301}"), operatorName: HostileText.payload("\u{0600}"), source: .typed)
        #expect(try await doors[1].send("POST", HubPaths.checkIns(event: event), json: CheckInBatch(items: [late])).status == 200)

        // What the script uploads while the live page is open: the server-sent update carries it.
        let update = CheckInUpload(key: IdempotencyKey(deviceID: "dev-1", guestID: try guestID("LIVE01"), scannedAt: .now()),
                                   station: HostileText.payload("\u{0600}", tag: "sse"), operatorName: HostileText.payload("\u{0301}", tag: "sse"),
                                   source: .camera)
        let hostile = marks.enumerated().map { index, mark in
            ["label": mark.label, "payload": HostileText.payload(mark.text), "email": HostileText.email(mark.text, index) ?? ""]
        }
        let guests = marks.enumerated().flatMap { index, mark in
            [String(format: "HOST%02d", index), String(format: "SAFE%02d", index)] + (mark.text.contains("\u{0}") ? [] : ["walk-\(index)"])
        }.compactMap { code in code.hasPrefix("walk-") ? code : roster.guests.first { $0.code == code }?.id }
        try BrowserTools.runScript(Self.script, label: "hostile", hub: hub, environment: [
            "HUB_URL": base, "EVENT_ID": event, "NAMED_EVENT_ID": named, "MODE": "sweep",
            "ORGANIZER_EMAIL": Self.organizer.email, "ORGANIZER_PASSWORD": Self.organizer.password,
            "HOSTILE": try Self.json(hostile), "GUEST_IDS": try Self.json(guests),
            "UPLOADS": try Self.json([try Self.upload(doors[1], HubPaths.checkIns(event: event), CheckInBatch(items: [update]))]),
        ], screenshots: ["hostile-live.png", "hostile-guest.png", "hostile-review.png"], logs: DashboardBrowserTests.logs(of: [hub]))
    }

    /// The review's variants A and B: a check-in staff member's walk-in opens a form to
    /// `/staff/add` on the guest page (name and company) and on the review page (name and
    /// operator); the organizer clicks the page's own "Check in now" and "Mark reviewed".
    @Test(.enabled(if: BrowserTools.missing == nil || BrowserTools.required, "browser tests skipped: \(BrowserTools.missing ?? "")"))
    func aCheckInStaffMemberCannotMakeAnOrganizerAccountWithOneClick() async throws {
        if let missing = BrowserTools.missing {
            Issue.record("CI=true and the browser tests cannot run: \(missing)")
            return
        }
        let hub = try organizersHub()
        defer { hub.remove() }
        let event = try hub.addEvent(name: "Exploit Night", roster: "code,name,email,access_type\nREG001,Regina Reg,reg@example.org,General\n")
        let door = try await station(hub, device: "dev-door", name: "Door 1")
        // A Prepend character before each `<` and `>`: one cluster with it, so copied out raw.
        let p = "\u{0600}<", q = " \u{0600}>"
        func hidden(_ name: String, _ value: String) -> String { "\(p)input type=hidden name=\(name) value=\(value)\(q)" }
        let form = "\(p)form action=/staff/add method=post\(q)"
        // Variant A: the guest page's heading opens the form, the company fact adds the account.
        let guestPage = WalkInUpload(
            guestID: "walk-a", code: "WALK-A", name: "Walter " + form + hidden("name", "Mallory") + hidden("role", "organizer"),
            company: hidden("email", "mallory@evil.test") + hidden("password", "mallory-pass-1"), accessTypeID: "general",
            deviceID: "dev-door", station: "Door 1", operatorName: "Alex", createdAt: .now())
        // Variant B: a registration's e-mail puts the walk-in on the review list; its operator adds the account.
        let reviewPage = WalkInUpload(
            guestID: "walk-b", code: "WALK-B", name: form + hidden("name", "Mel") + hidden("role", "organizer"),
            email: "reg@example.org", accessTypeID: "general", deviceID: "dev-door", station: "Door 1",
            operatorName: hidden("email", "mel@evil.test") + hidden("password", "mel-pass-123"), createdAt: .now())
        for walkIn in [guestPage, reviewPage] {
            #expect(walkIn.name.count <= UploadLimits.nameCharacters && walkIn.operatorName.count <= UploadLimits.operatorNameCharacters)
            let answer = try await door.send("POST", HubPaths.walkIns(event: event), json: WalkInBatch(items: [walkIn]))
            #expect(answer.status == 200, "\(String(decoding: answer.data, as: UTF8.self))")
        }
        try BrowserTools.runScript(Self.script, label: "one-click", hub: hub, environment: [
            "HUB_URL": hub.url, "EVENT_ID": event, "MODE": "one-click",
            "ORGANIZER_EMAIL": Self.organizer.email, "ORGANIZER_PASSWORD": Self.organizer.password,
            "GUEST_IDS": try Self.json(["walk-a"]),
        ], screenshots: ["one-click-guest.png", "one-click-review.png"], logs: DashboardBrowserTests.logs(of: [hub]))
        // Whatever the page did, no one got an account.
        let staff = try run(RealHub.executable, ["staff", "list", "--db", hub.database, "--json"]).json()["staff"] as? [[String: Any]] ?? []
        #expect(!staff.contains { ["mallory@evil.test", "mel@evil.test"].contains($0["email"] as? String) }, "an account was created: \(staff)")
        for (email, password) in [("mallory@evil.test", "mallory-pass-1"), ("mel@evil.test", "mel-pass-123")] {
            let answer = try await HubClient(base: hub.url).send("POST", HubPaths.signIn, json: SignInRequest(email: email, password: password))
            #expect(answer.status == 401, "\(email) signs in")
        }
        // The click did what the organizer meant: the walk-in is checked in.
        #expect(try hub.stats(event: event)["checked_in"] as? Int == 1)
    }

    /// The review's variant C: a check-in whose station is a `<meta http-equiv=refresh>`, in the
    /// live page's server-sent update and in the page as first served.
    @Test(.enabled(if: BrowserTools.missing == nil || BrowserTools.required, "browser tests skipped: \(BrowserTools.missing ?? "")"))
    func aStationNameCannotSendTheLivePageElsewhere() async throws {
        if let missing = BrowserTools.missing {
            Issue.record("CI=true and the browser tests cannot run: \(missing)")
            return
        }
        let hub = try organizersHub()
        defer { hub.remove() }
        let event = try hub.addEvent(name: "Redirect Night", roster: "code,name,email\nGST001,Gus Guest,gus@example.org\n")
        let door = try await station(hub, device: "dev-door", name: "Door 1")
        let roster = try await door.get(HubPaths.roster(event: event), as: RosterPage.self)
        let guest = try #require(roster.guests.first?.id)
        let refresh = CheckInUpload(key: IdempotencyKey(deviceID: "dev-door", guestID: guest, scannedAt: .now()),
                                    station: "\u{0600}<meta http-equiv=refresh content=0;url=/pwned>", operatorName: "Alex", source: .camera)
        try BrowserTools.runScript(Self.script, label: "zero-click", hub: hub, environment: [
            "HUB_URL": hub.url, "EVENT_ID": event, "MODE": "zero-click",
            "ORGANIZER_EMAIL": Self.organizer.email, "ORGANIZER_PASSWORD": Self.organizer.password,
            "UPLOADS": try Self.json([try Self.upload(door, HubPaths.checkIns(event: event), CheckInBatch(items: [refresh]))]),
        ], screenshots: ["zero-click-live.png"], logs: DashboardBrowserTests.logs(of: [hub]))
    }

    /// A hub with an organizer's account.
    func organizersHub() throws -> RealHub {
        let hub = try RealHub(guests: 1)
        try hub.addStaff(email: Self.organizer.email, name: Self.organizer.name, role: "organizer", password: Self.organizer.password)
        return hub
    }

    /// The hub's check-in staff member, signed in through the API as a station named `name`.
    func station(_ hub: RealHub, device: String, name: String) async throws -> HubClient {
        let pair = try await HubClient(base: hub.url).post(HubPaths.signIn, SignInRequest(email: hub.email, password: hub.password), as: TokenPair.self)
        let client = HubClient(base: hub.url, token: pair.accessToken)
        let registered = try await client.send("POST", HubPaths.stations,
                                               json: StationRegistrationRequest(name: name, deviceID: device, deviceSecret: "secret-of-\(device)-0000"))
        try #require(registered.status == 200, "register \(device): \(String(decoding: registered.data, as: UTF8.self))")
        return client
    }

    /// An API request for the script to send at the right moment (it has no Swift).
    static func upload(_ client: HubClient, _ path: String, _ body: some Encodable) throws -> [String: String] {
        ["method": "POST", "url": client.base + path, "token": client.token ?? "", "body": String(decoding: try HubJSON.encoder().encode(body), as: UTF8.self)]
    }

    static func json(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value), as: UTF8.self)
    }

    static func csvField(_ value: String) -> String {
        "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
