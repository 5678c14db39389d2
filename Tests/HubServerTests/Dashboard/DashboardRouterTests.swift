import CheckInCore
import CheckInHub
import Foundation
import HTTPTypes
import HubAPI
@testable import HubDashboard
@testable import HubServer
import Hummingbird
import HummingbirdTesting
import KioskTestSupport
import Logging
import NIOCore
import Testing

extension HTTPField.Name {
    static let xForwardedProto = HTTPField.Name("X-Forwarded-Proto")!
}

/// The dashboard's pages through the hub's router in process, on SQLite: sign-in with the API's
/// accounts, the session cookie's attributes, CSRF on every form, roles and 404s.
@Suite(.serialized, .blocking) struct DashboardRouterTests {
    static let password = "correct horse battery"
    /// Hashed once for every router suite: at CI's rounds each hash is a fraction of a second of
    /// CPU, and four suites hashing per test kept both of the pool's threads busy for over a minute.
    static let passwordHash: String = try! PasswordHasher.hash(password)

    /// A store with two events; `door@example.org` (check-in staff) is assigned to `ev1` only,
    /// `org@example.org` is an organizer.
    /// - Parameter signInFirstWaitSeconds: the throttle's first wait (a test of the throttle itself
    ///   gives it a minute, so a loaded machine's slow hashing does not outlast it).
    static func makeApp(signInFirstWaitSeconds: Int = 1) async throws -> (app: some ApplicationProtocol, store: any HubStore, directory: TemporaryDirectory) {
        let (store, directory) = try await StoreContractTests.makeStore("memory")
        try await store.createEvent(EventSummary(id: "ev1", name: "Door Gala", timeZone: "Europe/Berlin"), audit: nil)
        try await store.createEvent(EventSummary(id: "ev2", name: "Other Night"), audit: nil)
        let hash = passwordHash
        try await store.addStaff(StaffInfo(id: "st-door", email: "door@example.org", name: "Dana Door", role: .staff), passwordHash: hash, audit: nil)
        try await store.addStaff(StaffInfo(id: "st-org", email: "org@example.org", name: "Olga Org", role: .organizer), passwordHash: hash, audit: nil)
        _ = try await store.assign(event: "ev1", emails: ["door@example.org"], now: .now(), audit: nil)
        let app = try hubApplication(store: store, configuration: HubServerConfiguration(rateLimitPerSecond: 0, signInFirstWaitSeconds: signInFirstWaitSeconds), logger: Logger(label: "test"))
        return (app, store, directory)
    }

    /// A browser's cookie jar, enough for these pages.
    struct Browser {
        var cookies: [String: String] = [:]

        var headers: HTTPFields {
            var headers: HTTPFields = [:]
            if !cookies.isEmpty { headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
            return headers
        }

        mutating func keep(_ response: TestResponse) {
            for line in response.headers[values: .setCookie] {
                let pair = line.split(separator: ";")[0].split(separator: "=", maxSplits: 1).map(String.init)
                guard pair.count == 2 else { continue }
                cookies[pair[0]] = pair[1].isEmpty ? nil : pair[1]
            }
        }

        func get(_ client: some TestClientProtocol, _ path: String) async throws -> TestResponse {
            try await client.execute(uri: path, method: .get, headers: headers)
        }

        mutating func post(_ client: some TestClientProtocol, _ path: String, _ form: String) async throws -> TestResponse {
            var headers = self.headers
            headers[.contentType] = "application/x-www-form-urlencoded"
            let response = try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: form))
            keep(response)
            return response
        }

        /// The token of the form on `page` that posts to `action`, as a browser submitting it sends it.
        func token(_ client: some TestClientProtocol, on page: String, for action: String) async throws -> String {
            let html = DashboardRouterTests.text(try await get(client, page))
            return try #require(DashboardClient.token(in: html, action: action), "no form to \(action) on \(page)")
        }

        /// The token of this browser's session for a form posting to `action`, for a form its
        /// page shows only in some states (a merge, for a walk-in).
        func token(for action: String, store: any HubStore) async throws -> String {
            let cookie = try #require(cookies["hub_session"])
            let session = try #require(try await store.session(accessHash: Tokens.hash(cookie), now: .now()))
            return FormTokens(secret: cookie, sessionID: session.sessionID).form(action).csrf
        }

        /// Opens the sign-in page and posts the form; returns the form post's answer.
        mutating func signIn(_ client: some TestClientProtocol, email: String, password: String = DashboardRouterTests.password) async throws -> TestResponse {
            let page = try await get(client, "/signin")
            keep(page)
            let token = try #require(DashboardRouterTests.csrf(in: page))
            return try await post(client, "/signin", "csrf=\(token)&email=\(email)&password=\(password.replacingOccurrences(of: " ", with: "+"))&next=")
        }
    }

    static func text(_ response: TestResponse) -> String { String(buffer: response.body) }

    static func csrf(in response: TestResponse) -> String? {
        let html = text(response)
        guard let range = html.range(of: #"name="csrf" value="([^"]+)""#, options: .regularExpression) else { return nil }
        return String(html[range].dropFirst(#"name="csrf" value=""#.count).dropLast())
    }

    @Test func aPageWithoutASessionSendsTheBrowserToSignInAndBack() async throws {
        let (app, store, directory) = try await Self.makeApp()
        defer { directory.remove() }
        try await app.test(.router) { client in
            let response = try await Browser().get(client, "/events/ev1")
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/signin?next=/events/ev1")
            let root = try await Browser().get(client, "/")
            #expect(root.headers[.location] == "/events")
        }
        await store.close()
    }

    @Test func signInSetsAStrictHttpOnlySessionCookieForTheWholeHub() async throws {
        let (app, store, directory) = try await Self.makeApp()
        defer { directory.remove() }
        try await app.test(.router) { client in
            var browser = Browser()
            let response = try await browser.signIn(client, email: "door@example.org")
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/events")
            let cookie = try #require(response.headers[values: .setCookie].first { $0.hasPrefix("hub_session=") })
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Strict"))
            #expect(cookie.contains("Path=/"))
            #expect(!cookie.contains("Secure"), "plain HTTP on loopback: a Secure cookie would never come back")
            let events = try await browser.get(client, "/events")
            #expect(events.status == .ok)
            #expect(Self.text(events).contains("Dana Door"))
        }
        // The same session table as the API's sign-in.
        #expect(try await store.sessions().contains { $0.staffEmail == "door@example.org" && !$0.revoked })
        await store.close()
    }

    @Test func behindATrustedProxyThatSaysHTTPSTheCookieIsSecure() async throws {
        let (store, directory) = try await StoreContractTests.makeStore("memory")
        defer { directory.remove() }
        try await store.addStaff(StaffInfo(id: "st-org", email: "org@example.org", name: "Olga Org", role: .organizer),
                                 passwordHash: Self.passwordHash, audit: nil)
        // A real connection from 127.0.0.1, configured as the trusted proxy.
        let configuration = HubServerConfiguration(port: 0, rateLimitPerSecond: 0, trustedProxies: ["127.0.0.1"])
        let app = try hubApplication(store: store, configuration: configuration, logger: Logger(label: "test"))
        try await app.test(.live) { client in
            var browser = Browser()
            let page = try await client.execute(uri: "/signin", method: .get, headers: [.xForwardedProto: "https"])
            #expect(page.headers[values: .setCookie].allSatisfy { $0.contains("Secure") })
            browser.keep(page)
            let token = try #require(Self.csrf(in: page))
            var headers = browser.headers
            headers[.contentType] = "application/x-www-form-urlencoded"
            headers[.xForwardedProto] = "https"
            let signedIn = try await client.execute(uri: "/signin", method: .post, headers: headers,
                                                    body: ByteBuffer(string: "csrf=\(token)&email=org@example.org&password=correct+horse+battery"))
            #expect(signedIn.status == .seeOther)
            let cookie = try #require(signedIn.headers[values: .setCookie].first { $0.hasPrefix("hub_session=") })
            #expect(cookie.contains("Secure"))

            // Without the proxy's word, plain HTTP: no Secure.
            let plain = try await client.execute(uri: "/signin", method: .get)
            #expect(plain.headers[values: .setCookie].allSatisfy { !$0.contains("Secure") })
        }
        await store.close()
    }

    @Test func aWrongPasswordShowsTheFormAgainAndCountsForTheThrottle() async throws {
        let (app, store, directory) = try await Self.makeApp(signInFirstWaitSeconds: 60)
        defer { directory.remove() }
        try await app.test(.router) { client in
            var browser = Browser()
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<6 { statuses.append(try await browser.signIn(client, email: "door@example.org", password: "wrong").status) }
            #expect(statuses.prefix(5).allSatisfy { $0 == .unauthorized })
            // The API's throttle: five free failures, then a wait.
            #expect(statuses.last == .tooManyRequests)
            let throttled = try await browser.signIn(client, email: "door@example.org")
            #expect(throttled.status == .tooManyRequests, "the right password waits too")
        }
        await store.close()
    }

    @Test func everyTabOfABrowserSentToSignInAtOnceCanSignIn() async throws {
        let (app, store, directory) = try await Self.makeApp()
        defer { directory.remove() }
        try await app.test(.router) { client in
            // A session ends and two tabs land on the sign-in page; the person uses the first.
            var browser = Browser()
            let first = try await browser.get(client, "/signin")
            browser.keep(first)
            let second = try await browser.get(client, "/signin")
            browser.keep(second)
            let token = try #require(Self.csrf(in: first))
            let signedIn = try await browser.post(client, "/signin", "csrf=\(token)&email=door@example.org&password=\(Self.password.replacingOccurrences(of: " ", with: "+"))&next=")
            #expect(signedIn.status == .seeOther, "\(Self.text(signedIn))")
            #expect(browser.cookies["hub_session"] != nil)
            // A secret this hub did not make is not kept: the form gets a fresh one.
            var planted = Browser(cookies: ["hub_signin": "chosen-by-someone-else"])
            let page = try await planted.get(client, "/signin")
            planted.keep(page)
            #expect(planted.cookies["hub_signin"] != "chosen-by-someone-else")
        }
        await store.close()
    }

    @Test func aFormPostedWithoutItsCSRFTokenIsRefused() async throws {
        let (app, store, directory) = try await Self.makeApp()
        defer { directory.remove() }
        try await app.test(.router) { client in
            var browser = Browser()
            let page = try await browser.get(client, "/signin")
            browser.keep(page)
            let noToken = try await browser.post(client, "/signin", "email=door@example.org&password=correct+horse+battery")
            #expect(noToken.status == .forbidden)
            #expect(try await browser.signIn(client, email: "door@example.org").status == .seeOther)

            let signOutWithout = try await browser.post(client, "/signout", "")
            #expect(signOutWithout.status == .forbidden)
            let forged = try await browser.post(client, "/signout", "csrf=forged")
            #expect(forged.status == .forbidden)
            #expect(try await browser.get(client, "/events").status == .ok, "still signed in")

            let events = try await browser.get(client, "/events")
            let token = try #require(Self.csrf(in: events))
            let signOut = try await browser.post(client, "/signout", "csrf=\(token)")
            #expect(signOut.status == .seeOther)
            #expect(signOut.headers[.location] == "/signin")
            #expect(try await browser.get(client, "/events").status == .seeOther, "signed out")
        }
        #expect(try await store.sessions().allSatisfy(\.revoked))
        await store.close()
    }

    @Test func staffSeeOnlyTheirEventsAndAnotherEventsPageIsNotFound() async throws {
        let (app, store, directory) = try await Self.makeApp()
        defer { directory.remove() }
        try await app.test(.router) { client in
            var door = Browser()
            _ = try await door.signIn(client, email: "door@example.org")
            let list = Self.text(try await door.get(client, "/events"))
            #expect(list.components(separatedBy: #"data-test="dashboard-event-row""#).count - 1 == 1)
            #expect(list.contains("Door Gala"))
            #expect(!list.contains("Other Night"))
            #expect(try await door.get(client, "/events/ev2").status == .notFound)
            #expect(try await door.get(client, "/events/ev2/live").status == .notFound)
            #expect(try await door.get(client, "/events/nope").status == .notFound)
            let live = try await door.get(client, "/events/ev1")
            #expect(live.status == .ok)
            #expect(Self.text(live).contains(#"data-test="dashboard-checked-in-count""#))
            #expect(Self.text(live).contains("Europe/Berlin"))

            var organizer = Browser()
            _ = try await organizer.signIn(client, email: "org@example.org")
            let all = Self.text(try await organizer.get(client, "/events"))
            #expect(all.components(separatedBy: #"data-test="dashboard-event-row""#).count - 1 == 2)
            #expect(try await organizer.get(client, "/events/ev2").status == .ok)
        }
        await store.close()
    }

    @Test func staticFilesComeFromTheBinary() async throws {
        let (app, store, directory) = try await Self.makeApp()
        defer { directory.remove() }
        try await app.test(.router) { client in
            let css = try await Browser().get(client, "/static/dashboard.css")
            #expect(css.status == .ok)
            #expect(css.headers[.contentType] == "text/css; charset=utf-8")
            #expect(try await Browser().get(client, "/static/live.js").status == .ok)
            #expect(try await Browser().get(client, "/static/nope.js").status == .notFound)
        }
        await store.close()
    }
}
