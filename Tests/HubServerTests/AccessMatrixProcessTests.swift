import CheckInCore
import Foundation
import HubAPI
import KioskTestSupport
import Testing

/// Per-event access and the staff lifecycle against a real `checkin-hub serve`, set up through
/// the hub's command line as an organizer would.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking) struct AccessMatrixProcessTests {
    let hub = BuiltProducts.executable("checkin-hub")

    /// A SQLite hub database with events ev1 and ev2 and ``AccessMatrix/people``, assigned as listed.
    func prepare(_ directory: TemporaryDirectory) throws -> String {
        let db = "sqlite:" + directory.appending("hub.sqlite").path
        for event in ["ev1", "ev2"] {
            #expect(try run(hub, ["event", "create", "--db", db, "--name", event, "--id", event]).status == 0)
        }
        for person in AccessMatrix.people {
            let added = try run(hub, ["staff", "add", "--db", db, "--email", person.email, "--name", person.name, "--role", person.role.rawValue],
                                stdin: person.password + "\n")
            #expect(added.status == 0)
            for event in person.events {
                #expect(try run(hub, ["staff", "assign", "--db", db, "--event", event, "--email", person.email]).status == 0)
            }
        }
        return db
    }

    func signIn(_ base: String, _ email: String, _ password: String) async throws -> TokenPair {
        try await HubClient(base: base).post(HubPaths.signIn, SignInRequest(email: email, password: password), as: TokenPair.self)
    }

    @Test(.hangGuard) func everyRouteAnswersEachRoleForEachEventAsTheRulesSay() async throws {
        let directory = TemporaryDirectory("hub-access")
        defer { directory.remove() }
        let db = try prepare(directory)
        let server = try HubProcess(db: db)
        defer { server.stop() }
        var tokens: [AccessMatrix.Caller: String] = [:]
        for person in AccessMatrix.people {
            tokens[person.caller] = try await signIn(server.base, person.email, person.password).accessToken
        }
        let signedIn = tokens, base = server.base
        let mismatches = try await AccessMatrix.run(tokens: signedIn) { method, path, token, body in
            let answer = try await HubClient(base: base).send(method, path, body: body.map { Data($0.utf8) }, token: token)
            return (answer.status, answer.data)
        }
        #expect(mismatches == [])
        let listed = try run(hub, ["staff", "list", "--db", db, "--event", "ev1", "--json"]).json()["staff"] as? [[String: Any]]
        #expect(listed?.compactMap { $0["email"] as? String } == ["alex@x.org", "olga@x.org", "sam@x.org"])
    }

    @Test(.hangGuard) func unassigningDisablingAndANewPasswordTakeEffectOnTheNextRequest() async throws {
        let directory = TemporaryDirectory("hub-access")
        defer { directory.remove() }
        let db = try prepare(directory)
        let server = try HubProcess(db: db)
        defer { server.stop() }
        var alex = HubClient(base: server.base, token: try await signIn(server.base, "alex@x.org", "staff-pass-1").accessToken)
        _ = try await alex.post(HubPaths.stations, StationRegistrationRequest(name: "Door 1"), as: StationRegistration.self)
        #expect(try await alex.send("GET", HubPaths.roster(event: "ev1")).status == 200)

        // Unassigned: the event is gone for Alex at once, the session stays.
        #expect(try run(hub, ["staff", "unassign", "--db", db, "--event", "ev1", "--email", "alex@x.org"]).status == 0)
        #expect(try await alex.send("GET", HubPaths.roster(event: "ev1")).status == 404)
        #expect(try await alex.get(HubPaths.events, as: EventList.self).events.isEmpty)
        #expect(try run(hub, ["staff", "assign", "--db", db, "--event", "ev1", "--email", "ALEX@x.org"]).status == 0)
        #expect(try await alex.send("GET", HubPaths.roster(event: "ev1")).status == 200)

        // Disabled: the station is named before its session ends; sign-in is refused.
        let disabled = try run(hub, ["staff", "disable", "--db", db, "--email", "alex@x.org"])
        #expect(disabled.status == 0)
        #expect(disabled.stdout.contains("signing out station Door 1"), "\(disabled.stdout)")
        #expect(disabled.stdout.contains("1 session(s) revoked"))
        #expect(try await alex.send("GET", HubPaths.roster(event: "ev1")).status == 401)
        let refused = try await HubClient(base: server.base).send(
            "POST", HubPaths.signIn, json: SignInRequest(email: "alex@x.org", password: "staff-pass-1"))
        #expect(refused.status == 401)
        let list = try run(hub, ["staff", "list", "--db", db]).stdout
        #expect(list.contains("alex@x.org  Alex  staff  DISABLED  ev1"), "\(list)")

        // Enabled with a new password: the old one no longer signs in, the new one does.
        #expect(try run(hub, ["staff", "enable", "--db", db, "--email", "alex@x.org"]).status == 0)
        #expect(try run(hub, ["staff", "passwd", "--db", db, "--email", "alex@x.org"], stdin: "a-new-password\n").status == 0)
        let old = try await HubClient(base: server.base).send("POST", HubPaths.signIn, json: SignInRequest(email: "alex@x.org", password: "staff-pass-1"))
        #expect(old.status == 401)
        alex.token = try await signIn(server.base, "alex@x.org", "a-new-password").accessToken
        #expect(try await alex.send("GET", HubPaths.stats(event: "ev1")).status == 200)

        // Removed: sessions end, the address can be given to someone new, who starts with no event.
        let removed = try run(hub, ["staff", "remove", "--db", db, "--email", "alex@x.org", "--json"])
        #expect(removed.status == 0)
        #expect((try removed.json()["revoked_sessions"] as? [Any])?.count == 1)
        #expect(try await alex.send("GET", HubPaths.stats(event: "ev1")).status == 401)
        #expect(try run(hub, ["staff", "add", "--db", db, "--email", "alex@x.org", "--name", "Alexa", "--role", "staff"], stdin: "another-pass\n").status == 0)
        let alexa = HubClient(base: server.base, token: try await signIn(server.base, "alex@x.org", "another-pass").accessToken)
        #expect(try await alexa.send("GET", HubPaths.stats(event: "ev1")).status == 404)

        let unknown = try run(hub, ["staff", "disable", "--db", db, "--email", "nobody@x.org"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("No staff member nobody@x.org"), "\(unknown.stderr)")
    }
}
