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

/// The guest lookup and guest page through the hub's router in process, on SQLite: who may use
/// them, the CSRF token on both forms, what the forms change and log, and hostile names.
@Suite(.serialized, .blocking) struct GuestRouterTests {
    typealias Browser = DashboardRouterTests.Browser

    /// ``DashboardRouterTests/makeApp()`` plus a roster for `ev1` (one hostile name) and
    /// `sue@example.org`, support staff assigned to `ev1` only.
    static func makeApp() async throws -> (app: some ApplicationProtocol, store: any HubStore, directory: TemporaryDirectory) {
        let (app, store, directory) = try await DashboardRouterTests.makeApp()
        try await store.addStaff(StaffInfo(id: "st-sue", email: "sue@example.org", name: "Sue Support", role: .support),
                                 passwordHash: DashboardRouterTests.passwordHash, audit: nil)
        _ = try await store.assign(event: "ev1", emails: ["sue@example.org"], now: .now(), audit: nil)
        _ = try await store.importRoster(event: "ev1", rows: [
            RosterRow(line: 2, code: TicketCode(stored: "ADA1"), name: "Ada Lovelace", email: "ada@example.org", company: "", accessType: "General",
                      facts: TicketFacts(orderCode: "ORD-7")),
            RosterRow(line: 3, code: TicketCode(stored: "EVIL1"), name: "<script>alert(1)</script>\u{1b}[31mRed", email: "evil@example.org",
                      company: "", accessType: "General", facts: TicketFacts(attention: "<img src=x onerror=alert(2)>")),
        ], replace: false, audit: nil)
        return (app, store, directory)
    }

    @Test func checkInStaffAreRefusedTheLookupAndAnotherEventsGuestsAreNotFound() async throws {
        let (app, store, directory) = try await Self.makeApp()
        defer { directory.remove() }
        try await app.test(.router) { client in
            var door = Browser()
            _ = try await door.signIn(client, email: "door@example.org")
            // The live page is theirs (with the chart, without the guest search); the guest pages are not.
            let live = try await door.get(client, "/events/ev1")
            #expect(live.status == .ok)
            #expect(DashboardRouterTests.text(live).contains(#"data-test="dashboard-arrivals-chart""#))
            #expect(!DashboardRouterTests.text(live).contains(#"data-test="dashboard-live-guest-search""#))
            #expect(try await door.get(client, "/events/ev1/guests?q=ada").status == .forbidden)
            #expect(try await door.get(client, "/events/ev1/guests/ADA1").status == .forbidden)
            #expect(try await door.post(client, "/events/ev1/guests/ADA1/checkin", "csrf=x").status == .forbidden)
            var sue = Browser()
            _ = try await sue.signIn(client, email: "sue@example.org")
            #expect(DashboardRouterTests.text(try await sue.get(client, "/events/ev1")).contains(#"data-test="dashboard-live-guest-search""#))
            let found = try await sue.get(client, "/events/ev1/guests?q=ada")
            #expect(found.status == .ok)
            #expect(DashboardRouterTests.text(found).contains(#"data-test="dashboard-guest-row" data-guest-id="ADA1""#))
            // Support staff of ev1 only: ev2 does not exist for them, nor an unknown event; an unknown guest is a 404 too.
            #expect(try await sue.get(client, "/events/ev2/guests?q=ada").status == .notFound)
            #expect(try await sue.get(client, "/events/nope/guests/ADA1").status == .notFound)
            #expect(try await sue.get(client, "/events/ev1/guests/NOBODY").status == .notFound)
        }
        await store.close()
    }

    @Test func bothGuestFormsNeedTheSessionsCSRFTokenAndChangeNothingWithout() async throws {
        let (app, store, directory) = try await Self.makeApp()
        defer { directory.remove() }
        try await app.test(.router) { client in
            var olga = Browser()
            _ = try await olga.signIn(client, email: "org@example.org")
            for path in ["/events/ev1/guests/ADA1/checkin", "/events/ev1/guests/ADA1/revoke"] {
                #expect(try await olga.post(client, path, "reason=x").status == .forbidden)
                #expect(try await olga.post(client, path, "csrf=forged&reason=x").status == .forbidden)
            }
            #expect(try await store.stats(event: "ev1").checkedIn == 0)
            #expect(try await store.guestRecord(event: "ev1", id: "ADA1")?.guest.revoked == false)
            #expect(try await store.organizerActions(event: "ev1").isEmpty)
        }
        await store.close()
    }

    @Test func theFormsCheckInRevokeAndRestoreAndEachIsLoggedWithWhoAndWhy() async throws {
        let (app, store, directory) = try await Self.makeApp()
        defer { directory.remove() }
        try await app.test(.router) { client in
            var olga = Browser()
            _ = try await olga.signIn(client, email: "org@example.org")
            let page = try await olga.get(client, "/events/ev1/guests/ADA1")
            #expect(page.status == .ok)
            let html = DashboardRouterTests.text(page)
            let token = try #require(DashboardClient.token(in: html, action: "/events/ev1/guests/ADA1/checkin"))
            let revokeToken = try #require(DashboardClient.token(in: html, action: "/events/ev1/guests/ADA1/revoke"))
            let checkIn = try await olga.post(client, "/events/ev1/guests/ADA1/checkin", "csrf=\(token)")
            #expect(checkIn.status == .seeOther)
            #expect(checkIn.headers[.location] == "/events/ev1/guests/ADA1?done=checked-in")
            // A second click within the event's tolerance window is that admission seen again.
            try await Task.sleep(for: .milliseconds(5))
            let again = try await olga.post(client, "/events/ev1/guests/ADA1/checkin", "csrf=\(token)")
            #expect(again.headers[.location] == "/events/ev1/guests/ADA1?done=duplicate")
            let refused = DashboardRouterTests.text(try await olga.get(client, "/events/ev1/guests/ADA1?done=duplicate"))
            #expect(refused.contains("Already checked in at "))
            #expect(refused.contains("at Dashboard by Olga Org moments ago; nothing new recorded."))
            #expect(refused.components(separatedBy: #"data-test="dashboard-guest-history-row""#).count - 1 == 2)
            #expect(try await store.stats(event: "ev1").checkedIn == 1)

            // A revocation needs a reason.
            let bare = try await olga.post(client, "/events/ev1/guests/ADA1/revoke", "csrf=\(revokeToken)&reason=+++")
            #expect(bare.headers[.location] == "/events/ev1/guests/ADA1?done=reason-missing")
            #expect(try await store.guestRecord(event: "ev1", id: "ADA1")?.guest.revoked == false)
            // The check-in form's token is not the revoke form's.
            #expect(try await olga.post(client, "/events/ev1/guests/ADA1/revoke", "csrf=\(token)&reason=refunded").status == .forbidden)
            let revoke = try await olga.post(client, "/events/ev1/guests/ADA1/revoke", "csrf=\(revokeToken)&reason=refunded+%3Cby+phone%3E")
            #expect(revoke.headers[.location] == "/events/ev1/guests/ADA1?done=revoked")
            #expect(try await store.guestRecord(event: "ev1", id: "ADA1")?.status == .revoked)
            let revokedPage = DashboardRouterTests.text(try await olga.get(client, "/events/ev1/guests/ADA1?done=revoked"))
            #expect(revokedPage.contains(#"data-test="dashboard-restore""#))
            #expect(revokedPage.contains("revoked the ticket: refunded &lt;by phone&gt;"))
            let restoreToken = try #require(DashboardClient.token(in: revokedPage, action: "/events/ev1/guests/ADA1/restore"))
            let restore = try await olga.post(client, "/events/ev1/guests/ADA1/restore", "csrf=\(restoreToken)")
            #expect(restore.headers[.location] == "/events/ev1/guests/ADA1?done=restored")
            let actions = try await store.organizerActions(event: "ev1")
            #expect(actions.map(\.kind) == [.manualCheckIn, .manualCheckIn, .guestRevoked, .guestRestored])
            #expect(actions.map(\.detail) == ["admitted", "duplicate of an admission moments before", "refunded <by phone>", ""])
            #expect(Set(actions.map(\.actorName)) == ["Olga Org"])
        }
        await store.close()
    }

    @Test func aHostileNameAndNoteRenderAsTextInTheLookupAndOnTheGuestPage() async throws {
        let (app, store, directory) = try await Self.makeApp()
        defer { directory.remove() }
        try await app.test(.router) { client in
            var olga = Browser()
            _ = try await olga.signIn(client, email: "org@example.org")
            for path in ["/events/ev1/guests?q=script", "/events/ev1/guests/EVIL1"] {
                let html = DashboardRouterTests.text(try await olga.get(client, path))
                #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "\(path)")
                #expect(!html.contains("<script>alert"), "\(path)")
                #expect(!html.contains("\u{1b}"), "\(path): an escape code reached the page")
                #expect(!html.contains("<img src=x"), "\(path)")
            }
            // A search of hostile text is shown back as text, and finds nothing.
            let odd = DashboardRouterTests.text(try await olga.get(client, "/events/ev1/guests?q=%3Cb%3E%25_%1B"))
            #expect(odd.contains(#"value="&lt;b&gt;%_""#))
            #expect(odd.contains(#"data-test="dashboard-guest-none""#))
        }
        await store.close()
    }
}
