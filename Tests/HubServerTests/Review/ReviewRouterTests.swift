import CheckInCore
import Foundation
import HTTPTypes
import HubAPI
import HubServer
import Hummingbird
import HummingbirdTesting
import KioskTestSupport
import RosterCSV
import Testing

/// The review page through the hub's router in process (no browser): who may see and use it,
/// CSRF on each of its forms, and hostile guest data shown as text.
@Suite(.serialized, .blocking) struct ReviewRouterTests {
    typealias Browser = DashboardRouterTests.Browser
    static let hostile = "<script>alert(1)</script> \u{1b}[2J Eve"

    /// DashboardRouterTests' hub, plus a support account assigned to ev1 and, in ev1, a conflict
    /// for a guest with a hostile name.
    static func makeApp() async throws -> (app: some ApplicationProtocol, store: any HubStore, directory: TemporaryDirectory, conflict: String) {
        let (app, store, directory) = try await DashboardRouterTests.makeApp()
        try await store.addStaff(StaffInfo(id: "st-sup", email: "sup@example.org", name: "Sam Support", role: .support),
                                 passwordHash: DashboardRouterTests.passwordHash, audit: nil)
        _ = try await store.assign(event: "ev1", emails: ["sup@example.org"], now: .now(), audit: nil)
        _ = try await store.importRoster(event: "ev1", rows: [
            RosterRow(line: 2, code: TicketCode(stored: "EVE1"), name: hostile, email: "eve@example.org", company: "", accessType: "General"),
        ], replace: false, audit: nil)
        let event = try #require(try await store.event(id: "ev1"))
        let now = Timestamp.now()
        for (device, ago) in [("dev-a", 300_000), ("dev-b", 200_000)] as [(String, Int64)] {
            let upload = CheckInUpload(key: IdempotencyKey(deviceID: device, guestID: "EVE1", scannedAt: now.adding(milliseconds: -ago)),
                                       station: "Door \(device)", operatorName: "Alex", source: .typed)
            _ = try await store.ingest(event: event, items: [upload], uploader: Uploader(staffID: "st-door", role: .staff, deviceID: device), now: now)
        }
        let conflict = try #require(try await store.reviewItems(event: "ev1", limit: 10).first { $0.kind == .conflict })
        return (app, store, directory, conflict.subject)
    }

    static func form(_ token: String, _ fields: [String: String]) -> String {
        (["csrf": token].merging(fields) { $1 }).map { "\($0.key)=\(WebRoutesEscape.form($0.value))" }.joined(separator: "&")
    }

    @Test func checkInStaffGet403AndAnEventTheCallerMayNotSeeIsA404() async throws {
        let (app, store, directory, conflict) = try await Self.makeApp()
        defer { directory.remove() }
        try await app.test(.router) { client in
            var door = Browser()
            _ = try await door.signIn(client, email: "door@example.org")
            #expect(try await door.get(client, "/events/ev1/review").status == .forbidden)
            let live = try await door.get(client, "/events/ev1")
            #expect(!DashboardRouterTests.text(live).contains("dashboard-review-link"), "no link to a page they cannot open")
            let token = try #require(DashboardRouterTests.csrf(in: live))
            let posted = try await door.post(client, "/events/ev1/review/mark", Self.form(token, ["kind": "conflict", "subject": conflict]))
            #expect(posted.status == .forbidden)

            var support = Browser()
            _ = try await support.signIn(client, email: "sup@example.org")
            #expect(try await support.get(client, "/events/ev1/review").status == .ok)
            #expect(try await support.get(client, "/events/ev2/review").status == .notFound, "not assigned: as if it did not exist")
            var organizer = Browser()
            _ = try await organizer.signIn(client, email: "org@example.org")
            #expect(try await organizer.get(client, "/events/nope/review").status == .notFound)
            #expect(try await organizer.get(client, "/events/ev2/review").status == .ok)
            let organizersLive = DashboardRouterTests.text(try await organizer.get(client, "/events/ev1"))
            #expect(organizersLive.contains("href=\"/events/ev1/review\" data-test=\"dashboard-review-link\""))
        }
        #expect(try await store.organizerActions(event: "ev1").isEmpty)
        await store.close()
    }

    @Test func everyFormNeedsThePagesTokenAndAMarkIsAuditedOnce() async throws {
        let (app, store, directory, conflict) = try await Self.makeApp()
        defer { directory.remove() }
        try await app.test(.router) { client in
            var organizer = Browser()
            _ = try await organizer.signIn(client, email: "org@example.org")
            let page = DashboardRouterTests.text(try await organizer.get(client, "/events/ev1/review"))
            let token = try #require(DashboardClient.token(in: page, action: "/events/ev1/review/mark"))
            let undoToken = try #require(DashboardClient.token(in: page, action: "/events/ev1/review/undo"))
            let mergeToken = try await organizer.token(for: "/events/ev1/review/merge", store: store)
            for path in ["/events/ev1/review/mark", "/events/ev1/review/merge", "/events/ev1/review/undo"] {
                let fields = ["kind": "conflict", "subject": conflict, "walkIn": "W", "into": "EVE1", "key": conflict]
                #expect(try await organizer.post(client, path, Self.form("forged", fields)).status == .forbidden, "\(path)")
                let noToken = fields.map { "\($0.key)=\(WebRoutesEscape.form($0.value))" }.joined(separator: "&")
                #expect(try await organizer.post(client, path, noToken).status == .forbidden, "\(path)")
            }
            #expect(try await store.organizerActions(event: "ev1").isEmpty, "nothing changed without the token")

            let marked = try await organizer.post(client, "/events/ev1/review/mark", Self.form(token, ["kind": "conflict", "subject": conflict]))
            #expect(marked.status == .seeOther)
            #expect(marked.headers[.location] == "/events/ev1/review?done=reviewed")
            let again = try await organizer.post(client, "/events/ev1/review/mark", Self.form(token, ["kind": "conflict", "subject": conflict]))
            #expect(again.status == .seeOther, "a second click is no error")
            let after = DashboardRouterTests.text(try await organizer.get(client, "/events/ev1/review?done=reviewed"))
            #expect(after.contains("Marked reviewed."))
            #expect(after.contains("Reviewed by Olga Org"))

            let unknown = try await organizer.post(client, "/events/ev1/review/mark", Self.form(token, ["kind": "conflict", "subject": "x/y/1"]))
            #expect(unknown.status == .notFound)
            let badKind = try await organizer.post(client, "/events/ev1/review/mark", Self.form(token, ["kind": "<b>", "subject": conflict]))
            #expect(badKind.status == .unprocessableContent)
            #expect(try await organizer.post(client, "/events/ev1/review/merge", Self.form(token, ["walkIn": "EVE1", "into": "EVE1"])).status == .forbidden,
                    "the mark form's token is not the merge form's")
            let merge = try await organizer.post(client, "/events/ev1/review/merge", Self.form(mergeToken, ["walkIn": "EVE1", "into": "EVE1"]))
            #expect(merge.status == .conflict)
            #expect(DashboardRouterTests.text(merge).contains("Only a walk-in can be merged"))
            let undo = try await organizer.post(client, "/events/ev1/review/undo", Self.form(undoToken, ["key": "not a key"]))
            #expect(undo.status == .unprocessableContent)
        }
        #expect(try await store.organizerActions(event: "ev1").map(\.kind) == [.conflictReviewed])
        await store.close()
    }

    @Test func aHostileGuestNameIsShownAsTextAndTimesInTheEventsZone() async throws {
        let (app, store, directory, _) = try await Self.makeApp()
        defer { directory.remove() }
        try await app.test(.router) { client in
            var organizer = Browser()
            _ = try await organizer.signIn(client, email: "org@example.org")
            let response = try await organizer.get(client, "/events/ev1/review")
            #expect(response.status == .ok)
            let html = DashboardRouterTests.text(response)
            #expect(!html.contains("<script>alert(1)"))
            #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(!html.contains("\u{1b}"), "no escape codes reach the page")
            #expect(html.contains("data-test=\"dashboard-conflict-row\""))
            #expect(html.contains("Times in Europe/Berlin"))
        }
        await store.close()
    }
}

/// Form encoding for the tests' posts.
enum WebRoutesEscape {
    static func form(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
