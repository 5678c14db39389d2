import CheckInCore
import Foundation
import HubAPI
import Testing
@testable import HubDashboard
@testable import HubServer

/// The dashboard's small decisions, in process: CSRF tokens, when cookies are `Secure`, where
/// sign-in may send the browser back to, and the embedded templates.
struct DashboardRulesTests {
    @Test func aCSRFTokenVerifiesOnlyUnderItsOwnSecretAndPurpose() {
        let token = CSRFToken.make(secret: "cookie-a", purpose: "session:ses_1")
        #expect(CSRFToken.verify(token, secret: "cookie-a", purpose: "session:ses_1"))
        #expect(!CSRFToken.verify(token, secret: "cookie-b", purpose: "session:ses_1"))
        #expect(!CSRFToken.verify(token, secret: "cookie-a", purpose: "session:ses_2"))
        #expect(!CSRFToken.verify(nil, secret: "cookie-a", purpose: "session:ses_1"))
        #expect(!CSRFToken.verify("", secret: "cookie-a", purpose: "session:ses_1"))
        #expect(!CSRFToken.verify(String(token.dropLast()), secret: "cookie-a", purpose: "session:ses_1"))
    }

    @Test func aFormsTokenVerifiesOnlyForItsOwnActionAndSession() {
        let forms = FormTokens(secret: "cookie-a", sessionID: "ses_1")
        let checkIn = forms.form("/events/ev1/guests/G%201/checkin")
        #expect(checkIn.action == "/events/ev1/guests/G%201/checkin")
        #expect(forms.verifies(checkIn.csrf, path: "/events/ev1/guests/G%201/checkin"))
        #expect(forms.verifies(checkIn.csrf, path: "/events/ev1/guests/G 1/checkin"), "the path as written and as sent agree")
        for other in ["/staff/add", "/signout", "/events/ev1/guests/G%201/revoke", "/events/ev1/guests/G%202/checkin"] {
            #expect(!forms.verifies(checkIn.csrf, path: other), "\(other)")
        }
        #expect(!FormTokens(secret: "cookie-a", sessionID: "ses_2").verifies(checkIn.csrf, path: "/events/ev1/guests/G%201/checkin"))
        #expect(!FormTokens(secret: "cookie-b", sessionID: "ses_1").verifies(checkIn.csrf, path: "/events/ev1/guests/G%201/checkin"))
        #expect(!forms.verifies(nil, path: "/staff/add"))
    }

    @Test func cookiesAreSecureOverTLSOrWhenATrustedProxySaysHTTPS() {
        let proxies: Set<String> = ["10.0.0.1"]
        #expect(WebTransport.isSecure(servesTLS: true, peer: "127.0.0.1", forwardedProto: nil, trustedProxies: []))
        #expect(!WebTransport.isSecure(servesTLS: false, peer: "127.0.0.1", forwardedProto: nil, trustedProxies: proxies))
        #expect(WebTransport.isSecure(servesTLS: false, peer: "10.0.0.1", forwardedProto: "https", trustedProxies: proxies))
        #expect(WebTransport.isSecure(servesTLS: false, peer: "10.0.0.1", forwardedProto: "HTTPS, http", trustedProxies: proxies))
        #expect(!WebTransport.isSecure(servesTLS: false, peer: "10.0.0.1", forwardedProto: "http", trustedProxies: proxies))
        // Anyone else's header proves nothing.
        #expect(!WebTransport.isSecure(servesTLS: false, peer: "192.0.2.7", forwardedProto: "https", trustedProxies: proxies))
    }

    @Test func signInSendsTheBrowserBackOnlyToAPathOnThisHub() {
        #expect(WebResponse.localPath("/events/ev1") == "/events/ev1")
        #expect(WebResponse.localPath("/events?range=today") == "/events?range=today")
        #expect(WebResponse.localPath("//evil.example/x") == nil)
        #expect(WebResponse.localPath("https://evil.example/") == nil)
        #expect(WebResponse.localPath("/\\evil.example") == nil)
        #expect(WebResponse.localPath(nil) == nil)
    }

    @Test func everyTemplateAndStaticFileIsEmbeddedInTheBinary() {
        for name in ["top", "bottom", "signin", "events", "live", "live-groups", "problem"] {
            #expect(WebAssets.hasTemplate(name), "\(name)")
        }
        #expect(WebAssets.staticFiles["dashboard.css"]?.contentType == "text/css; charset=utf-8")
        #expect(WebAssets.staticFiles["live.js"]?.contentType == "text/javascript; charset=utf-8")
    }

    @Test func pagesEscapeWhatOrganizersTyped() {
        let html = WebAssets.render("problem", WebResponse.ProblemPage(title: "<script>alert(1)</script>", detail: "a & b", status: 404))
        #expect(!html.contains("<script>alert(1)"))
        #expect(html.contains("&lt;script&gt;"))
    }

    @Test func theLiveTablesListEveryAccessTypeAndStationTheStoreCounted() {
        let stats = EventStats(expected: 5, checkedIn: 2, inside: 1, duplicates: 0, conflicts: 0,
                               accessTypes: [StatsGroup(id: "general", expected: 4, checkedIn: 1, inside: 1), StatsGroup(id: "vip", expected: 1, checkedIn: 1, inside: 0)],
                               stations: [StatsGroup(id: "Door A", expected: 0, checkedIn: 2, inside: 0)])
        let recent = [RecentCheckIn(guestName: "Ada <Lovelace>", station: "Door A", operatorName: "Alex", source: "camera", direction: "entry",
                                    scannedAt: Timestamp(milliseconds: 1_782_923_400_000))]
        let html = LiveCounts(stats, recent: recent, accessTypeNames: ["general": "General admission", "vip": ""], at: Timestamp(milliseconds: 0),
                              time: WebTime(timeZone: "Europe/Berlin")).groupsHTML
        #expect(html.components(separatedBy: #"data-test="dashboard-access-type-row""#).count - 1 == 2)
        // Access types under the names organizers gave them; the id where there is none.
        #expect(html.contains("<td>General admission</td>") && html.contains("<td>vip</td>"))
        #expect(html.components(separatedBy: #"data-test="dashboard-station-count-row""#).count - 1 == 1)
        #expect(html.contains("Door A"))
        #expect(html.components(separatedBy: #"data-test="dashboard-feed-row""#).count - 1 == 1)
        #expect(html.contains("Ada &lt;Lovelace&gt;"), "names escaped")
        #expect(html.contains("18:30:00"), "the feed's times in the event's zone")
    }

    @Test func timesAreShownInTheEventsTimeZone() {
        // 2026-07-01T16:30:00Z is 18:30 in Berlin (summer time).
        let time = WebTime(timeZone: "Europe/Berlin")
        #expect(time.dateTime(Timestamp(milliseconds: 1_782_923_400_000)) == "2026-07-01 18:30")
        #expect(WebTime(timeZone: "Not/AZone").zoneName == "UTC")
    }
}
