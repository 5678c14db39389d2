import CheckInCore
import Foundation
import HTTPTypes
import HubAPI
import HubServer
import Hummingbird
import HummingbirdTesting
import KioskTestSupport
import NIOCore
import Testing

/// The organizer's pages through the hub's router in process, on SQLite: roles (organizers only;
/// an event the caller cannot see is 404), CSRF on every form including the multipart upload,
/// validation in words (never a 500), and the changes with their log entries.
@Suite(.serialized, .blocking) struct AdminRouterTests {
    typealias Browser = DashboardRouterTests.Browser

    /// DashboardRouterTests' hub, plus `sup@example.org` (support, assigned to ev1).
    static func makeApp() async throws -> (app: some ApplicationProtocol, store: any HubStore, directory: TemporaryDirectory) {
        let (app, store, directory) = try await DashboardRouterTests.makeApp()
        try await store.addStaff(StaffInfo(id: "st-sup", email: "sup@example.org", name: "Sue Support", role: .support),
                                 passwordHash: DashboardRouterTests.passwordHash, audit: nil)
        _ = try await store.assign(event: "ev1", emails: ["sup@example.org"], now: .now(), audit: nil)
        return (app, store, directory)
    }

    static func text(_ response: TestResponse) -> String { String(buffer: response.body) }

    /// Signs in and returns the browser and a CSRF token of its session.
    static func signedIn(_ client: some TestClientProtocol, _ email: String) async throws -> (Browser, String) {
        var browser = Browser()
        _ = try await browser.signIn(client, email: email)
        let token = try #require(DashboardRouterTests.csrf(in: try await browser.get(client, "/events")))
        return (browser, token)
    }

    static let boundary = "----AdminRouterTestsBoundary"

    static func upload(_ client: some TestClientProtocol, _ browser: Browser, event: String = "ev1", csrf: String?, fileName: String,
                       _ content: [UInt8], replace: Bool = false) async throws -> TestResponse {
        var body: [UInt8] = []
        func part(_ headers: String, _ bytes: [UInt8]) {
            body += Array("--\(boundary)\r\n\(headers)\r\n\r\n".utf8) + bytes + Array("\r\n".utf8)
        }
        if let csrf { part("Content-Disposition: form-data; name=\"csrf\"", Array(csrf.utf8)) }
        part("Content-Disposition: form-data; name=\"file\"; filename=\"\(fileName)\"\r\nContent-Type: application/octet-stream", content)
        if replace { part("Content-Disposition: form-data; name=\"replace\"", Array("on".utf8)) }
        body += Array("--\(boundary)--\r\n".utf8)
        var headers = browser.headers
        headers[.contentType] = "multipart/form-data; boundary=\(boundary)"
        return try await client.execute(uri: "/events/\(event)/roster", method: .post, headers: headers, body: ByteBuffer(bytes: body))
    }

    @Test func onlyOrganizersReachTheEventStaffAndUploadPages() async throws {
        let (app, store, directory) = try await Self.makeApp()
        defer { directory.remove() }
        try await app.test(.router) { client in
            let (organizer, _) = try await Self.signedIn(client, "org@example.org")
            for path in ["/events/new", "/events/ev1/edit", "/events/ev2/edit", "/events/ev1/roster", "/staff"] {
                #expect(try await organizer.get(client, path).status == .ok, "\(path)")
            }
            #expect(try await organizer.get(client, "/events/nope/edit").status == .notFound)
            let events = Self.text(try await organizer.get(client, "/events"))
            #expect(events.contains(#"data-test="dashboard-new-event""#))
            #expect(Self.text(try await organizer.get(client, "/events/ev1")).contains(#"data-test="dashboard-roster-link""#))

            let (support, supportToken) = try await Self.signedIn(client, "sup@example.org")
            for path in ["/events/new", "/events/ev1/edit", "/events/ev1/roster", "/staff"] {
                #expect(try await support.get(client, path).status == .forbidden, "\(path)")
            }
            #expect(try await support.get(client, "/events/ev2/edit").status == .notFound, "not their event: 404 as everywhere")
            var poster = support
            #expect(try await poster.post(client, "/staff/add", "csrf=\(supportToken)&email=x@example.org&name=X&role=organizer&password=12345678").status == .forbidden)
            #expect(try await Self.upload(client, support, csrf: supportToken, fileName: "a.csv", Array("code,name\nA,B\n".utf8)).status == .forbidden)
            #expect(!Self.text(try await support.get(client, "/events")).contains(#"data-test="dashboard-new-event""#))

            let (door, _) = try await Self.signedIn(client, "door@example.org")
            #expect(try await door.get(client, "/staff").status == .forbidden)
            #expect(try await door.get(client, "/events/ev1/edit").status == .forbidden)
        }
        #expect(try await store.staff(email: "x@example.org") == nil)
        await store.close()
    }

    @Test func everyPostWithoutItsTokenIsRefusedUploadsIncluded() async throws {
        let (app, store, directory) = try await Self.makeApp()
        defer { directory.remove() }
        try await app.test(.router) { client in
            var (organizer, token) = try await Self.signedIn(client, "org@example.org")
            let forms = [
                ("/events/new", "name=X&time_zone=UTC&window_seconds=30&undo_seconds=300"),
                ("/events/ev1/edit", "name=X&time_zone=UTC&window_seconds=30&undo_seconds=300"),
                ("/events/ev1/access-types", "name=Day"),
                ("/staff/add", "email=x@example.org&name=X&role=staff&password=12345678"),
                ("/staff/assign", "email=door@example.org&event=ev2"), ("/staff/unassign", "email=door@example.org&event=ev1"),
                ("/staff/disable", "email=door@example.org"), ("/staff/enable", "email=door@example.org"),
                ("/staff/password", "email=door@example.org&password=12345678"), ("/staff/sessions/revoke", "session=x"),
            ]
            for (path, fields) in forms {
                #expect(try await organizer.post(client, path, fields).status == .forbidden, "\(path) without a token")
                #expect(try await organizer.post(client, path, fields + "&csrf=forged").status == .forbidden, "\(path) with a forged token")
            }
            let csv = Array("code,name\nA1,Ana\n".utf8)
            #expect(try await Self.upload(client, organizer, csrf: nil, fileName: "guests.csv", csv).status == .forbidden)
            #expect(try await Self.upload(client, organizer, csrf: "forged", fileName: "guests.csv", csv).status == .forbidden)
            // A file posted to a form that takes none.
            var headers = organizer.headers
            headers[.contentType] = "multipart/form-data; boundary=\(Self.boundary)"
            let body = "--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n\(token)\r\n--\(Self.boundary)--\r\n"
            #expect(try await client.execute(uri: "/staff/add", method: .post, headers: headers, body: ByteBuffer(string: body)).status == .unsupportedMediaType)
            // Another form's token (the sign-out form's) is refused; the upload form's own is taken.
            #expect(try await Self.upload(client, organizer, csrf: token, fileName: "guests.csv", csv).status == .forbidden)
            let upload = try await organizer.token(client, on: "/events/ev1/roster", for: "/events/ev1/roster")
            #expect(try await Self.upload(client, organizer, csrf: upload, fileName: "guests.csv", csv).status == .ok)
        }
        #expect(try await store.stats(event: "ev1").expected == 1, "only the upload with its token imported")
        #expect(try await store.staff(email: "x@example.org") == nil)
        #expect(try await store.staff(email: "door@example.org") != nil, "not disabled")
        await store.close()
    }

    @Test func aBadTimeZoneOrAnEndBeforeTheStartIsAnsweredInWords() async throws {
        let (app, store, directory) = try await Self.makeApp()
        defer { directory.remove() }
        try await app.test(.router) { client in
            var (organizer, _) = try await Self.signedIn(client, "org@example.org")
            let token = try await organizer.token(client, on: "/events/new", for: "/events/new")
            let edit = try await organizer.token(client, on: "/events/ev1/edit", for: "/events/ev1/edit")
            let badZone = try await organizer.post(client, "/events/new",
                                                   "csrf=\(token)&name=Gala&time_zone=Mars%2FOlympus&starts=&ends=&window_seconds=30&undo_seconds=300")
            #expect(badZone.status == .unprocessableContent)
            #expect(Self.text(badZone).contains("“Mars/Olympus” is no time zone"))
            #expect(Self.text(badZone).contains(#"value="Gala""#), "the form keeps what was typed")
            let backwards = try await organizer.post(client, "/events/ev1/edit", "csrf=\(edit)&name=Door+Gala&time_zone=Europe%2FBerlin"
                + "&starts=2026-11-24T20%3A00&ends=2026-11-24T18%3A00&window_seconds=30&undo_seconds=300")
            #expect(backwards.status == .unprocessableContent)
            #expect(Self.text(backwards).contains("The end is before the start"))
            let hostile = try await organizer.post(client, "/events/new", "csrf=\(token)&name=%3Cscript%3Ealert(1)%3C%2Fscript%3E&time_zone=%3Cb%3E"
                + "&window_seconds=x&undo_seconds=300")
            #expect(hostile.status == .unprocessableContent)
            #expect(!Self.text(hostile).contains("<script>alert"), "escaped")
            #expect(try await store.events().count == 2, "nothing created")
            #expect(try await store.event(id: "ev1")?.startsAt == nil, "nothing changed")
        }
        await store.close()
    }

    @Test func anOrganizerCreatesAndEditsAnEventAndItsAccessTypesAndEachChangeIsLogged() async throws {
        let (app, store, directory) = try await Self.makeApp()
        defer { directory.remove() }
        try await app.test(.router) { client in
            var (organizer, _) = try await Self.signedIn(client, "org@example.org")
            let created = try await organizer.post(client, "/events/new", "csrf=\(try await organizer.token(client, on: "/events/new", for: "/events/new"))&name=Autumn+Gala&time_zone=Europe%2FBerlin"
                + "&starts=2026-11-24T18%3A00&ends=2026-11-24T23%3A00&window_seconds=45&undo_seconds=120")
            #expect(created.status == .seeOther)
            let location = try #require(created.headers[.location])
            let id = String(try #require(location.split(separator: "/").dropFirst().first))
            let event = try #require(try await store.event(id: id))
            #expect(event.name == "Autumn Gala" && event.toleranceWindowMilliseconds == 45_000 && event.stationUndoMilliseconds == 120_000)
            #expect(event.startsAt == Timestamp(iso8601: "2026-11-24T17:00:00Z"))
            let page = Self.text(try await organizer.get(client, location))
            #expect(page.contains("Event created."))
            #expect(page.contains(#"value="2026-11-24T18:00""#), "shown in the event's zone")
            let types = try #require(DashboardClient.token(in: page, action: "/events/\(id)/access-types"))
            let edit = try #require(DashboardClient.token(in: page, action: "/events/\(id)/edit"))

            #expect(try await organizer.post(client, "/events/\(id)/access-types", "csrf=\(types)&name=Day+pass&reentry=on"
                + "&valid_from=2026-11-24T17%3A00&valid_until=2026-11-24T22%3A00").status == .seeOther)
            #expect(try await organizer.post(client, "/events/\(id)/access-types", "csrf=\(types)&name=VIP").status == .seeOther)
            let backwards = try await organizer.post(client, "/events/\(id)/access-types", "csrf=\(types)&name=Late"
                + "&valid_from=2026-11-24T22%3A00&valid_until=2026-11-24T17%3A00")
            #expect(backwards.status == .unprocessableContent)
            #expect(Self.text(backwards).contains("“Valid until” is before “valid from”"))
            #expect(try await store.accessTypes(event: id).map(\.name) == ["Day pass", "VIP"])
            #expect(try await store.accessTypes(event: id).first?.reentry == true)

            #expect(try await organizer.post(client, "/events/\(id)/edit", "csrf=\(edit)&name=Winter+Gala&time_zone=Europe%2FBerlin"
                + "&starts=&ends=&window_seconds=30&undo_seconds=300").status == .seeOther)
            #expect(try await store.event(id: id)?.name == "Winter Gala")
            let kinds = try await store.organizerActions(event: id).map(\.kind)
            #expect(kinds == [.eventCreated, .accessTypeSaved, .accessTypeSaved, .eventEdited])
            #expect(try await store.organizerActions(event: id).allSatisfy { $0.actorID == "st-org" })
        }
        await store.close()
    }

    @Test func anUploadReportsLikeTheCommandAndABrokenFileChangesNothing() async throws {
        let (app, store, directory) = try await Self.makeApp()
        defer { directory.remove() }
        try await app.test(.router) { client in
            let (organizer, _) = try await Self.signedIn(client, "org@example.org")
            let token = try await organizer.token(client, on: "/events/ev1/roster", for: "/events/ev1/roster")
            let csv = "code,name,email,access_type,seat\nA1,Ana,ana@example.org,General,1\n,No Code,x@example.org,General,2\nA3,Abe,abe@example.org,VIP,3\n"
            let report = try await Self.upload(client, organizer, csrf: token, fileName: "guests.csv", Array(csv.utf8))
            #expect(report.status == .ok)
            let html = Self.text(report)
            #expect(html.contains(#"data-test="dashboard-import-imported">2<"#))
            #expect(html.contains(#"data-test="dashboard-import-rejected">1<"#))
            #expect(html.components(separatedBy: #"data-test="dashboard-import-rejected-row""#).count - 1 == 1)
            #expect(html.contains("<td>3</td>"), "the rejected row's line")
            #expect(html.contains("Columns ignored: seat"))
            #expect(try await store.stats(event: "ev1").expected == 2)

            // Replace with a rejected row: refused as the command refuses it, nothing changed.
            let refused = try await Self.upload(client, organizer, csrf: token, fileName: "guests.csv", Array(csv.utf8), replace: true)
            #expect(refused.status == .unprocessableContent)
            #expect(Self.text(refused).contains("so --replace would revoke those guests. Nothing was changed"))

            let text = try await Self.upload(client, organizer, csrf: token, fileName: "guests.xlsx", Array("code,name\nB1,Bo\n".utf8))
            #expect(text.status == .unprocessableContent)
            #expect(Self.text(text).contains("is named like an Excel workbook (.xlsx) but is not one"))
            let blob = try await Self.upload(client, organizer, csrf: token, fileName: "blob.csv", (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            #expect(blob.status == .unprocessableContent)
            #expect(Self.text(blob).contains("The file is neither text (CSV) nor an Excel workbook"))
            // UTF-16 text has NULs too, and is read.
            let utf16 = try await Self.upload(client, organizer, csrf: token, fileName: "utf16.csv",
                                              [0xFF, 0xFE] + Array("code,name\nU1,Una\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
            #expect(utf16.status == .ok)
            let empty = try await Self.upload(client, organizer, csrf: token, fileName: "empty.csv", [])
            #expect(empty.status == .unprocessableContent)
            #expect(Self.text(empty).contains("The roster file is empty"))
        }
        #expect(try await store.stats(event: "ev1").expected == 3, "no broken file changed the roster (the UTF-16 one added a guest)")
        let logged = try await store.organizerActions(event: "ev1").filter { $0.kind == .rosterUploaded }
        #expect(logged.map(\.detail) == ["imported 2, updated 0, unchanged 0", "imported 1, updated 0, unchanged 0"])
        await store.close()
    }

    @Test func anOrganizerManagesAccountsAndTheirSessionsAndEachChangeIsLogged() async throws {
        let (app, store, directory) = try await Self.makeApp()
        defer { directory.remove() }
        try await app.test(.router) { client in
            var (organizer, _) = try await Self.signedIn(client, "org@example.org")
            // Each form's own token; the changes that grant something carry the organizer's password.
            // (No account is disabled yet, so the page has no enable form to take it from.)
            let staffPage = Self.text(try await organizer.get(client, "/staff"))
            var tokens: [String: String] = [:]
            for action in ["add", "assign", "unassign", "disable", "password", "sessions/revoke"] {
                tokens[action] = try #require(DashboardClient.token(in: staffPage, action: "/staff/" + action), "\(action)")
            }
            tokens["enable"] = try await organizer.token(for: "/staff/enable", store: store)
            let confirm = "&current_password=" + DashboardRouterTests.password.replacingOccurrences(of: " ", with: "+")
            let added = try await organizer.post(client, "/staff/add", "csrf=\(tokens["add"]!)&email=Sam%40Example.org&name=Sam&role=staff&password=sam+secret+1" + confirm)
            #expect(added.status == .seeOther)
            let page = Self.text(try await organizer.get(client, "/staff?done=added"))
            #expect(page.contains("Staff member added."))
            #expect(!page.contains("sam secret 1") && !page.contains("sam+secret+1"), "the password is never shown")
            // A hostile name is kept as text and shown escaped.
            #expect(try await organizer.post(client, "/staff/add", "csrf=\(tokens["add"]!)&email=eve%40example.org"
                + "&name=Eve+%3Cscript%3Ealert(1)%3C%2Fscript%3E%1B%5B31m&role=support&password=eve+secret+1" + confirm).status == .seeOther)
            let listed = Self.text(try await organizer.get(client, "/staff"))
            #expect(!listed.contains("<script>alert(1)") && listed.contains("Eve &lt;script&gt;alert(1)&lt;/script&gt;[31m"))
            let twice = try await organizer.post(client, "/staff/add", "csrf=\(tokens["add"]!)&email=sam%40example.org&name=Sam&role=staff&password=sam+secret+1" + confirm)
            #expect(twice.status == .unprocessableContent)
            #expect(Self.text(twice).contains("exists already"))
            #expect(!Self.text(twice).contains("sam secret 1"))
            let short = try await organizer.post(client, "/staff/add", "csrf=\(tokens["add"]!)&email=tim%40example.org&name=Tim&role=staff&password=short" + confirm)
            #expect(short.status == .unprocessableContent)
            #expect(Self.text(short).contains("at least 8 characters"))

            #expect(try await organizer.post(client, "/staff/assign", "csrf=\(tokens["assign"]!)&email=sam%40example.org&event=ev2" + confirm).status == .seeOther)
            var sam = Browser()
            #expect(try await sam.signIn(client, email: "sam@example.org", password: "sam secret 1").status == .seeOther)
            #expect(try await sam.get(client, "/events/ev2").status == .ok)
            #expect(try await sam.get(client, "/events/ev1").status == .notFound)
            let sessions = Self.text(try await organizer.get(client, "/staff"))
            #expect(sessions.contains(#"data-email="sam@example.org""#))

            #expect(try await organizer.post(client, "/staff/disable", "csrf=\(tokens["disable"]!)&email=sam%40example.org").status == .seeOther)
            #expect(try await sam.get(client, "/events").status == .seeOther, "their session ended: back to sign-in")
            #expect(try await organizer.post(client, "/staff/enable", "csrf=\(tokens["enable"]!)&email=sam%40example.org" + confirm).status == .seeOther)
            #expect(try await organizer.post(client, "/staff/password", "csrf=\(tokens["password"]!)&email=sam%40example.org&password=new+secret+2" + confirm).status == .seeOther)
            var again = Browser()
            #expect(try await again.signIn(client, email: "sam@example.org", password: "sam secret 1").status == .unauthorized)
            #expect(try await again.signIn(client, email: "sam@example.org", password: "new secret 2").status == .seeOther)
            let live = try #require(try await store.sessions().first { $0.staffEmail == "sam@example.org" && !$0.revoked })
            #expect(try await organizer.post(client, "/staff/sessions/revoke", "csrf=\(tokens["sessions/revoke"]!)&session=\(live.id)").status == .seeOther)
            #expect(try await again.get(client, "/events").status == .seeOther)
            #expect(try await organizer.post(client, "/staff/unassign", "csrf=\(tokens["unassign"]!)&email=sam%40example.org&event=ev2").status == .seeOther)
            let mine = try await organizer.post(client, "/staff/disable", "csrf=\(tokens["disable"]!)&email=org%40example.org")
            #expect(mine.status == .unprocessableContent, "an organizer cannot lock themselves out")
            let nobody = try await organizer.post(client, "/staff/disable", "csrf=\(tokens["disable"]!)&email=nobody%40example.org")
            #expect(nobody.status == .unprocessableContent)
            #expect(Self.text(nobody).contains("There is no such account"))
        }
        #expect(try await store.accountActions().map(\.kind) == [.staffAdded, .staffAdded, .staffDisabled, .staffEnabled, .passwordReset, .sessionRevoked])
        #expect(try await store.organizerActions(event: "ev2").map(\.kind) == [.staffAssigned, .staffUnassigned])
        // Hashed as `checkin-hub staff add` hashes: PBKDF2 with the configured rounds.
        #expect(try await store.staff(email: "sam@example.org")?.passwordHash.hasPrefix("pbkdf2-sha256$\(PasswordHasher.rounds)$") == true)
        await store.close()
    }
}
