import CheckInCore
import Foundation
import HubAPI
import KioskTestSupport
import Testing

/// Security review F9 against a real `checkin-hub serve`: no answer of the API may be kept by a
/// cache between a station and the hub. Roster pages, conflicts and the station list carry
/// names and e-mails; refusals are answers too.
@Suite(.hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct APINoStoreProcessTests {
    @Test func everyAPIAnswerSaysNoStoreGuestDataAndRefusalsAlike() async throws {
        let hub = try RealHub(guests: 3)
        defer { hub.remove() }
        let organizer = (email: "olga@example.org", password: "organizer pass 1")
        try hub.addStaff(email: organizer.email, name: "Olga", role: "organizer", password: organizer.password)
        let pair = try await HubClient(base: hub.url).post(HubPaths.signIn, SignInRequest(email: organizer.email, password: organizer.password),
                                                           as: TokenPair.self)
        let olga = HubClient(base: hub.url, token: pair.accessToken), anonymous = HubClient(base: hub.url)
        let event = hub.eventID
        var answers: [(String, Int, [AnyHashable: Any])] = []
        for path in [HubPaths.roster(event: event), HubPaths.conflicts(event: event), HubPaths.stationReports(event: event),
                     HubPaths.events, HubPaths.stats(event: event), HubPaths.roster(event: "no-such-event")] {
            let answer = try await olga.send("GET", path)
            answers.append(("GET " + path, answer.status, answer.headers))
        }
        let refused = try await anonymous.send("GET", HubPaths.roster(event: event))
        answers.append(("GET roster without a token", refused.status, refused.headers))
        let wrong = try await anonymous.send("POST", HubPaths.signIn, json: SignInRequest(email: organizer.email, password: "wrong password"))
        answers.append(("POST sign-in, wrong password", wrong.status, wrong.headers))
        answers.append(("POST sign-in", 200, try await anonymous.send("POST", HubPaths.signIn,
                                                                   json: SignInRequest(email: organizer.email, password: organizer.password)).headers))
        let unknown = try await olga.send("GET", "/v1/no-such-route")
        answers.append(("GET an unknown API path", unknown.status, unknown.headers))
        #expect(answers.map(\.1) == [200, 200, 200, 200, 200, 404, 401, 401, 200, 404])
        for (what, _, headers) in answers {
            let cacheControl = headers.first { ($0.key as? String)?.lowercased() == "cache-control" }?.value as? String
            #expect(cacheControl == "no-store", "\(what): Cache-Control \(cacheControl ?? "absent")")
        }
    }
}
