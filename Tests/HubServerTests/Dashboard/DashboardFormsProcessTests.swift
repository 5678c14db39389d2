import Foundation
import HubAPI
import KioskTestSupport
import Testing

/// Security review F6 against a real `checkin-hub serve`, as a browser's forms post: a form's
/// token is bound to its action (one taken from another form, as F1's injected form did, is
/// refused), staff administration asks for the organizer's own password again, and so does
/// changing one's own password.
@Suite(.hangGuard, .serialized, .tags(.endToEnd), .endToEnd, .blocking)
struct DashboardFormsProcessTests {
    static let organizer = (email: "olga@example.org", password: "organizer pass 1")
    static let sam = (email: "sam@example.org", password: "sam first pass")

    /// A hub with an organizer, and Sam (check-in staff, no event); the organizer signed in.
    func prepare() throws -> (hub: RealHub, olga: DashboardClient) {
        let hub = try RealHub(guests: 2)
        for (person, name, role) in [(Self.organizer, "Olga Organizer", "organizer"), (Self.sam, "Sam Door", "staff")] {
            try hub.addStaff(email: person.email, name: name, role: role, password: person.password)
        }
        return (hub, DashboardClient(base: hub.url))
    }

    func staff(_ hub: RealHub) throws -> [[String: Any]] {
        try run(RealHub.executable, ["staff", "list", "--db", hub.database, "--json"]).json()["staff"] as? [[String: Any]] ?? []
    }

    func account(_ hub: RealHub, _ email: String) throws -> [String: Any]? {
        try staff(hub).first { $0["email"] as? String == email }
    }

    func signsIn(_ hub: RealHub, _ email: String, _ password: String) async throws -> Bool {
        try await HubClient(base: hub.url).send("POST", HubPaths.signIn, json: SignInRequest(email: email, password: password)).status == 200
    }

    @Test func aFormsTokenIsRefusedByEveryOtherForm() async throws {
        let (hub, olga) = try prepare()
        defer { hub.remove() }
        try await olga.signIn(Self.organizer.email, Self.organizer.password)
        let guest = "/events/\(hub.eventID)/guests/CODE000000"
        let page = try await olga.get(guest)
        #expect(page.status == 200)
        #expect(page.headers["content-security-policy"]?.contains("form-action 'self'") == true)
        let checkIn = try #require(DashboardClient.token(in: page.body, action: guest + "/checkin"))

        // F1's injected form: the guest page's token, posted to /staff/add with everything else right.
        let borrowed = try await olga.post("/staff/add", [
            ("csrf", checkIn), ("name", "Mallory"), ("email", "mallory@evil.test"), ("role", "organizer"), ("password", "mallory-pass-1"),
            ("current_password", Self.organizer.password),
        ])
        #expect(borrowed.status == 403, "\(borrowed.status) \(borrowed.location ?? "")")
        #expect(borrowed.body.contains("Reload the page"), "said in words")
        #expect(try account(hub, "mallory@evil.test") == nil)
        for (path, fields) in [("/signout", [(String, String)]()), (guest + "/revoke", [("reason", "borrowed")]), ("/events/\(hub.eventID)/review/mark",
                               [("kind", "conflict"), ("subject", "x")])] {
            #expect(try await olga.post(path, [("csrf", checkIn)] + fields).status == 403, "\(path)")
        }
        // Its own form takes it.
        let own = try await olga.post(guest + "/checkin", [("csrf", checkIn)])
        #expect(own.status == 303 && own.location == guest + "?done=checked-in", "\(own.status) \(own.location ?? "")")
        #expect(try hub.stats()["checked_in"] as? Int == 1)
    }

    @Test func staffAdministrationAsksForTheOrganizersOwnPasswordAgain() async throws {
        let (hub, olga) = try prepare()
        defer { hub.remove() }
        try await olga.signIn(Self.organizer.email, Self.organizer.password)
        #expect(try run(RealHub.executable, ["staff", "disable", "--db", hub.database, "--email", Self.sam.email]).status == 0)
        let page = try await olga.get("/staff")
        func token(_ action: String) throws -> String { try #require(DashboardClient.token(in: page.body, action: action), "\(action)") }
        let changes: [(action: String, fields: [(String, String)], took: () async throws -> Bool)] = [
            ("/staff/add", [("name", "Nia New"), ("email", "nia@example.org"), ("role", "organizer"), ("password", "nia first pass")],
             { try account(hub, "nia@example.org") != nil }),
            ("/staff/assign", [("email", Self.sam.email), ("event", hub.eventID)],
             { try account(hub, Self.sam.email)?["events"] as? [String] == [hub.eventID] }),
            ("/staff/enable", [("email", Self.sam.email)], { try account(hub, Self.sam.email)?["disabled"] as? Bool == false }),
            ("/staff/password", [("email", Self.sam.email), ("password", "sam second pass")], {
                try await signsIn(hub, Self.sam.email, "sam second pass")
            }),
        ]
        for change in changes {
            let csrf = try token(change.action)
            for (confirmation, words) in [(nil, "Type your own password"), ("not my password", "is not your password")] as [(String?, String)] {
                let refused = try await olga.post(change.action, [("csrf", csrf)] + change.fields + (confirmation.map { [("current_password", $0)] } ?? []))
                #expect(refused.status == 422, "\(change.action) with \(confirmation ?? "no password"): \(refused.status)")
                #expect(refused.body.contains(words), "\(change.action): said in words")
                #expect(try await !change.took(), "\(change.action) changed nothing")
            }
            let done = try await olga.post(change.action, [("csrf", csrf)] + change.fields + [("current_password", Self.organizer.password)])
            #expect(done.status == 303, "\(change.action): \(done.status) \(done.body.prefix(300))")
            #expect(try await change.took(), "\(change.action) took effect")
        }
    }

    @Test func changingOnesOwnPasswordAsksForTheCurrentOne() async throws {
        let (hub, olga) = try prepare()
        defer { hub.remove() }
        try await olga.signIn(Self.organizer.email, Self.organizer.password)
        let page = try await olga.get("/staff")
        let csrf = try #require(DashboardClient.token(in: page.body, action: "/staff/password"))
        let fresh = "olga second pass"
        for confirmation in [nil, "not my password"] as [String?] {
            let refused = try await olga.post("/staff/password", [("csrf", csrf), ("email", Self.organizer.email), ("password", fresh)]
                                              + (confirmation.map { [("current_password", $0)] } ?? []))
            #expect(refused.status == 422, "\(confirmation ?? "no current password"): \(refused.status)")
        }
        #expect(try await signsIn(hub, Self.organizer.email, Self.organizer.password), "unchanged")
        let changed = try await olga.post("/staff/password", [("csrf", csrf), ("email", Self.organizer.email), ("password", fresh),
                                                               ("current_password", Self.organizer.password)])
        #expect(changed.status == 303)
        // Every session of hers ended, this one too: she signs in again with the new password.
        #expect(changed.location?.hasPrefix("/signin") == true, "\(changed.location ?? "")")
        #expect(try await olga.get("/staff").status == 303)
        #expect(try await !signsIn(hub, Self.organizer.email, Self.organizer.password))
        #expect(try await signsIn(hub, Self.organizer.email, fresh))
    }
}
