import CheckInCore
import Foundation
import HubAPI
import KioskTestSupport
import Testing

/// End to end: real hub processes, real PostgreSQL, HTTP on loopback.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking) struct HubProcessTests {
    let hub = BuiltProducts.executable("checkin-hub")

    /// A database with an event "ev" (guests G1…G50, single entry) and four staff members: Olga
    /// (organizer), Sam (support), Alex and Mallory (staff). In a fresh PostgreSQL database, or in
    /// SQLite in `sqliteIn` (a file tests can plant rows in).
    func prepare(sqliteIn sqlite: TemporaryDirectory? = nil) throws -> String {
        let db = try sqlite.map { "sqlite:" + $0.appending("hub.sqlite").path } ?? PostgresCluster.shared.get().createDatabase()
        let directory = TemporaryDirectory("hub-e2e")
        defer { directory.remove() }
        var csv = "name,email,company,code,ticket type\n"
        for i in 1...50 { csv += "Guest \(i),g\(i)@example.com,,G\(i),General\n" }
        try csv.write(to: directory.appending("roster.csv"), atomically: true, encoding: .utf8)
        #expect(try run(hub, ["event", "create", "--db", db, "--name", "Conf", "--id", "ev", "--json"]).status == 0)
        #expect(try run(hub, ["import", "--db", db, "--event", "ev", directory.appending("roster.csv").path, "--json"]).status == 0)
        for (email, name, role, password) in [
            ("org@x.org", "Olga", "organizer", "organizer-pass"), ("sam@x.org", "Sam", "support", "support-pass"),
            ("alex@x.org", "Alex", "staff", "staff-pass-1"), ("mal@x.org", "Mallory", "staff", "staff-pass-2"),
        ] {
            #expect(try run(hub, ["staff", "add", "--db", db, "--email", email, "--name", name, "--role", role], stdin: password + "\n").status == 0)
        }
        #expect(try run(hub, ["staff", "assign", "--db", db, "--event", "ev", "--email", "sam@x.org", "--email", "alex@x.org", "--email", "mal@x.org"]).status == 0)
        return db
    }

    func signIn(_ base: String, _ email: String, _ password: String) async throws -> TokenPair {
        try await HubClient(base: base).post(HubPaths.signIn, SignInRequest(email: email, password: password), as: TokenPair.self)
    }

    @Test(.hangGuard) func signInRefreshRotationRevocationAndRoles() async throws {
        let db = try prepare()
        // No refresh grace: reuse of the rotated token is theft at once (the grace has its own test).
        let server = try HubProcess(db: db, arguments: ["--refresh-grace-seconds", "0"])
        defer { server.stop() }
        let wrong = try await HubClient(base: server.base).send("POST", HubPaths.signIn, body: Data(#"{"email":"alex@x.org","password":"nope"}"#.utf8))
        #expect(wrong.status == 401)
        let tokens = try await signIn(server.base, "alex@x.org", "staff-pass-1")
        var client = HubClient(base: server.base, token: tokens.accessToken)
        #expect(try await client.get(HubPaths.events, as: EventList.self).events.map(\.id) == ["ev"])
        #expect(try await client.send("GET", HubPaths.conflicts(event: "ev")).status == 403)

        let rotated = try await client.post(HubPaths.refresh, RefreshRequest(refreshToken: tokens.refreshToken), as: TokenPair.self)
        #expect(try await client.send("GET", HubPaths.events).status == 401, "the old access token ends with the rotation")
        client.token = rotated.accessToken
        #expect(try await client.send("GET", HubPaths.events).status == 200)
        let reuse = try await client.send("POST", HubPaths.refresh, body: try HubJSON.encoder().encode(RefreshRequest(refreshToken: tokens.refreshToken)))
        #expect(reuse.status == 401)

        let other = try await signIn(server.base, "alex@x.org", "staff-pass-1")
        #expect(try run(hub, ["tokens", "revoke", "--db", db, other.sessionID]).status == 0)
        #expect(try await HubClient(base: server.base, token: other.accessToken).send("GET", HubPaths.events).status == 401)
    }

    @Test(.hangGuard) func everyRouteButSignInAndHealthRefusesAMissingToken() async throws {
        let db = try prepare()
        let server = try HubProcess(db: db)
        defer { server.stop() }
        let client = HubClient(base: server.base)
        let routes = try OpenAPIRoutes.load()
        #expect(routes.count >= 13)
        for route in routes {
            let path = route.path.replacingOccurrences(of: "{event}", with: "ev")
            let body: Data? = route.method == "POST" ? Data("{}".utf8) : nil
            let answer = try await client.send(route.method, path, body: body)
            if route.isPublic {
                #expect(answer.status != 401 && answer.status != 404, "\(route.method) \(route.path)")
            } else {
                #expect(answer.status == 401, "\(route.method) \(route.path) without a token")
            }
        }
        // And every documented route exists with a token (no 404, no 5xx).
        let organizer = try await signIn(server.base, "org@x.org", "organizer-pass")
        let authed = HubClient(base: server.base, token: organizer.accessToken)
        for route in routes where !route.isPublic && route.path != HubPaths.signOut {
            let path = route.path.replacingOccurrences(of: "{event}", with: "ev")
            let body: Data? = route.method == "POST" ? Data(#"{"items":[]}"#.utf8) : nil
            let answer = try await authed.send(route.method, path, body: route.path == HubPaths.stations ? Data(#"{"name":"Door 1"}"#.utf8) : body)
            #expect(answer.status == 200, "\(route.method) \(route.path): \(answer.status) \(String(decoding: answer.data, as: UTF8.self))")
        }
    }

    @Test(.hangGuard) func badRequestsGetFourHundredsNeverFiveHundreds() async throws {
        let db = try prepare()
        let server = try HubProcess(db: db)
        defer { server.stop() }
        let tokens = try await signIn(server.base, "alex@x.org", "staff-pass-1")
        let client = HubClient(base: server.base, token: tokens.accessToken)
        _ = try await client.post(HubPaths.stations, StationRegistrationRequest(name: "Door d", deviceID: "d", deviceSecret: "secret-of-station-d"),
                                  as: StationRegistration.self)
        let path = HubPaths.checkIns(event: "ev")
        let now = Timestamp.now().milliseconds
        let cases: [(String, Int)] = [
            ("{not json", 400),
            (#"{"items": 5}"#, 422),
            (#"{"items": [{"key": {"deviceID": "d", "guestID": "G1", "scannedAt": "soon"}, "station": "s", "operatorName": "o", "source": "camera", "direction": "entry"}]}"#, 422),
            (#"{"items": [], "extra": true}"#, 422),
            (#"{"items": [{"key": {"deviceID": "d", "guestID": "G1", "scannedAt": 1}, "station": "s", "operatorName": "o", "source": "telepathy", "direction": "entry"}]}"#, 422),
        ]
        for (body, expected) in cases {
            let answer = try await client.send("POST", path, body: Data(body.utf8))
            #expect(answer.status == expected, "\(body)")
        }
        let unknownField = try await client.send("POST", path, body: Data(#"{"items": [], "extra": true}"#.utf8))
        #expect(try HubJSON.decoder().decode(ProblemDocument.self, from: unknownField.data).field == "extra")
        // Once valid batches have been seen, an unknown field deep inside one is still refused.
        let item = #"{"key": {"deviceID": "d", "guestID": "G1", "scannedAt": \#(now)}, "station": "s", "operatorName": "o", "source": "camera", "direction": "entry""#
        #expect(try await client.send("POST", path, body: Data(#"{"items": [\#(item)}, \#(item), "reason": null}]}"#.utf8)).status == 200)
        let nested = try await client.send("POST", path, body: Data(#"{"items": [\#(item)}, \#(item), "extra": 1}]}"#.utf8))
        #expect(nested.status == 422)
        #expect(try HubJSON.decoder().decode(ProblemDocument.self, from: nested.data).field == "items.1.extra")
        let huge = Data(repeating: UInt8(ascii: " "), count: HubPaths.maximumBodyBytes + 10)
        let tooLarge = try await client.send("POST", path, body: huge)
        #expect((400..<500).contains(tooLarge.status))
        #expect(try await client.send("GET", HubPaths.roster(event: "nope")).status == 404)
        #expect(try await client.send("GET", HubPaths.roster(event: "ev") + "?cursor=-3").status == 422)
    }

    @Test(.timeLimit(.minutes(10))) func raceOfTwentyStationsOnTwoHubsAdmitsExactlyOnce() async throws {
        let db = try prepare()
        let hubs = [try HubProcess(db: db), try HubProcess(db: db)]
        defer { hubs.forEach { $0.stop() } }
        // An organizer may upload for any device: one session plays the 20 stations.
        let tokens = try await signIn(hubs[0].base, "org@x.org", "organizer-pass")
        let base = Timestamp.now().adding(milliseconds: -3_600_000)
        // 1,000 uploads of guest G7 from 20 stations, all within the tolerance window.
        let items = (0..<1_000).map { i in
            CheckInUpload(key: IdempotencyKey(deviceID: "station-\(i % 20)", guestID: "G7", scannedAt: base.adding(milliseconds: Int64(i))),
                          station: "Door \(i % 20)", operatorName: "Op \(i % 20)", source: .camera)
        }
        let results = try await withThrowingTaskGroup(of: CheckInResult.self) { group in
            for (index, item) in items.enumerated() {
                group.addTask {
                    let client = HubClient(base: hubs[index % 2].base, token: tokens.accessToken)
                    return try await client.post(HubPaths.checkIns(event: "ev"), CheckInBatch(items: [item]), as: CheckInBatchResult.self).results[0]
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let accepted = results.filter { $0.status == .accepted }
        #expect(accepted.count == 1)
        let winner = try #require(accepted.first)
        #expect(results.filter { $0.status == .duplicate }.count == 999)
        #expect(results.allSatisfy { $0.status == .accepted || $0.previous?.deviceID == winner.key.deviceID && $0.previous?.at == winner.key.scannedAt })

        // Replaying the whole set 5 times, as batches, changes nothing and answers the same.
        let byKey = Dictionary(uniqueKeysWithValues: results.map { ($0.key, $0) })
        for round in 0..<5 {
            let client = HubClient(base: hubs[round % 2].base, token: tokens.accessToken)
            for chunk in stride(from: 0, to: items.count, by: 250) {
                let again = try await client.post(HubPaths.checkIns(event: "ev"), CheckInBatch(items: Array(items[chunk..<chunk + 250])), as: CheckInBatchResult.self)
                #expect(again.results.allSatisfy { byKey[$0.key] == $0 })
            }
        }
        let stats = try run(hub, ["stats", "--db", db, "--event", "ev", "--json"]).json()
        #expect(stats["checked_in"] as? Int == 1)
        #expect(stats["duplicates"] as? Int == 999)
    }

    @Test(.hangGuard) func anOrderedOfflineBatchLandsInOrderAndPagesResume() async throws {
        let db = try prepare()
        let server = try HubProcess(db: db)
        defer { server.stop() }
        let tokens = try await signIn(server.base, "alex@x.org", "staff-pass-1")
        let client = HubClient(base: server.base, token: tokens.accessToken)
        let registration = try await client.post(HubPaths.stations, StationRegistrationRequest(name: "Door 1"), as: StationRegistration.self)
        let t0 = Timestamp.now().adding(milliseconds: -3_600_000)
        let key = { (guest: String, offset: Int64) in IdempotencyKey(deviceID: registration.deviceID, guestID: guest, scannedAt: t0.adding(milliseconds: offset)) }
        let batch = CheckInBatch(items: [
            CheckInUpload(key: key("G1", 0), station: "Door 1", operatorName: "Alex", source: .camera),
            CheckInUpload(key: key("G1", 60_000), station: "Door 1", operatorName: "Alex", source: .camera, direction: .exit),
            CheckInUpload(key: key("G1", 120_000), station: "Door 1", operatorName: "Alex", source: .camera),
        ])
        let results = try await client.post(HubPaths.checkIns(event: "ev"), batch, as: CheckInBatchResult.self).results
        #expect(results.map(\.status) == [.accepted, .accepted, .rejected])
        #expect(results[2].decision == .alreadyCheckedIn)

        var cursor: Int64 = 0
        var guests = 0, checkIns: [RosterCheckIn] = []
        while true {
            let page = try await client.get(HubPaths.roster(event: "ev") + "?cursor=\(cursor)&limit=20", as: RosterPage.self)
            guests += page.guests.count
            checkIns += page.checkIns
            cursor = page.cursor
            if !page.hasMore { break }
        }
        #expect(guests == 50)
        #expect(checkIns.map(\.direction) == [.entry, .exit])
        let empty = try await client.get(HubPaths.roster(event: "ev") + "?cursor=\(cursor)", as: RosterPage.self)
        #expect(empty.guests.isEmpty && empty.checkIns.isEmpty && empty.cursor == cursor)
    }

    @Test(.hangGuard) func exitsAreAnsweredFlaggedCountedAndListedOverHTTP() async throws {
        let directory = TemporaryDirectory("hub-e2e")
        defer { directory.remove() }
        let server = try HubProcess(db: try prepare(sqliteIn: directory))
        defer { server.stop() }
        let olga = HubClient(base: server.base, token: try await signIn(server.base, "org@x.org", "organizer-pass").accessToken)
        let entry = CheckInUpload(key: IdempotencyKey(deviceID: "door-a", guestID: "G1", scannedAt: Timestamp.now().adding(milliseconds: -60_000)),
                                  station: "Door A", operatorName: "Olga", source: .camera)
        #expect(try await olga.post(HubPaths.checkIns(event: "ev"), CheckInBatch(items: [entry]), as: CheckInBatchResult.self).results[0].flag == nil)
        let out = try await olga.send("POST", HubPaths.checkIns(event: "ev"), json: CheckInBatch(items: [
            CheckInUpload(key: IdempotencyKey(deviceID: "door-b", guestID: "G1", scannedAt: .now()), station: "Door B", operatorName: "Sam",
                          source: .scanner, direction: .exit),
            CheckInUpload(key: IdempotencyKey(deviceID: "door-b", guestID: "G2", scannedAt: .now()), station: "Door B", operatorName: "Sam",
                          source: .scanner, direction: .exit),
        ]))
        let text = String(decoding: out.data, as: UTF8.self)
        #expect(out.status == 200)
        let results = try HubJSON.decoder().decode(CheckInBatchResult.self, from: out.data).results
        #expect(results.map(\.decision) == [.admitted, .admitted])
        #expect(results.map(\.flag) == [nil, .exitWithoutEntry])
        #expect(text.contains(#""flag":"exit_without_entry""#))
        let stats = try await olga.get(HubPaths.stats(event: "ev"), as: EventStats.self)
        #expect(stats.checkedIn == 1 && stats.inside == 0 && stats.flaggedExits == 1)
        let conflicts = try await olga.get(HubPaths.conflicts(event: "ev"), as: ConflictList.self)
        #expect(conflicts.flaggedExits?.map(\.guestID) == ["G2"])
        #expect(conflicts.flaggedExits?.first?.exit.station == "Door B")
    }
}

/// The paths and methods of the OpenAPI document in Sources/HubAPI.
struct OpenAPIRoutes {
    var method: String
    var path: String
    var isPublic: Bool

    static func load() throws -> [OpenAPIRoutes] {
        let text = try String(contentsOf: BuiltProducts.packageRoot.appending(path: "Sources/HubAPI/openapi.yaml"), encoding: .utf8)
        var routes: [OpenAPIRoutes] = []
        var path: String?
        var inPaths = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "paths:" { inPaths = true; continue }
            if inPaths, !line.hasPrefix(" ") { break }
            if line.hasPrefix("  /") { path = String(line.dropFirst(2).dropLast()) }
            else if let path, line.hasPrefix("    get:") || line.hasPrefix("    post:") {
                routes.append(OpenAPIRoutes(method: line.hasPrefix("    get:") ? "GET" : "POST", path: path, isPublic: false))
            } else if line.hasPrefix("      security: []"), !routes.isEmpty {
                routes[routes.count - 1].isPublic = true
            }
        }
        return routes
    }
}
