import CheckInCore
import Foundation
import HubAPI
import KioskTestSupport
import Testing

/// Issue 15's cases against real `checkin-hub serve` processes on loopback: each reproduces a
/// crash or a forgery the security review ran, and now passes.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking) struct SyncContractProcessTests {
    let hub = BuiltProducts.executable("checkin-hub")

    /// The shared set-up: event "ev" (G1…G50) and staff Olga, Sam, Alex and Mallory.
    func prepare(sqliteIn directory: TemporaryDirectory? = nil) throws -> String {
        try HubProcessTests().prepare(sqliteIn: directory)
    }

    func signIn(_ server: HubProcess, _ email: String, _ password: String) async throws -> HubClient {
        let pair = try await HubClient(base: server.base).post(HubPaths.signIn, SignInRequest(email: email, password: password), as: TokenPair.self)
        return HubClient(base: server.base, token: pair.accessToken)
    }

    /// Signs in and registers a station with its own secret.
    func station(_ server: HubProcess, _ email: String, _ password: String, device: String, secret: String) async throws -> HubClient {
        let client = try await signIn(server, email, password)
        let registration = try await client.post(
            HubPaths.stations, StationRegistrationRequest(name: "Door \(device)", deviceID: device, deviceSecret: secret), as: StationRegistration.self)
        #expect(registration.deviceID == device)
        #expect(registration.deviceSecret == nil, "the station sent its own secret")
        return client
    }

    func checkIn(_ device: String, _ guest: String, at: Timestamp) -> CheckInUpload {
        CheckInUpload(key: IdempotencyKey(deviceID: device, guestID: guest, scannedAt: at), station: "Door \(device)", operatorName: "Op", source: .camera)
    }

    func expectAlive(_ server: HubProcess, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(server.isRunning, sourceLocation: sourceLocation)
        #expect(try await HubClient(base: server.base).send("GET", HubPaths.health).status == 200, sourceLocation: sourceLocation)
    }

    @Test(.hangGuard) func aBatchOfImplausibleScanTimesIsRefusedWholeAndTheHubLives() async throws {
        let server = try HubProcess(db: try prepare())
        defer { server.stop() }
        let alex = try await station(server, "alex@x.org", "staff-pass-1", device: "door-a", secret: "secret-of-door-a-1")
        let organizer = try await signIn(server, "org@x.org", "organizer-pass")
        // The review's crafted batch: one guest at 0 and at Int64.min.
        let crafted = CheckInBatch(items: [
            checkIn("door-a", "G3", at: Timestamp(milliseconds: 0)), checkIn("door-a", "G3", at: Timestamp(milliseconds: .min)),
        ])
        for client in [alex, organizer] {
            let answer = try await client.send("POST", HubPaths.checkIns(event: "ev"), json: crafted)
            #expect(answer.status == 422)
            let problem = try HubClient.problem(answer.data)
            #expect(problem.type == PlausibleTime.implausibleTimeProblemType)
            #expect(problem.field == "items.0.key.scannedAt")
            try await expectAlive(server)
        }
        // More than a day ahead of the hub's clock, or the last item of a batch: the field names it.
        let ahead = CheckInBatch(items: [
            checkIn("door-a", "G4", at: .now()), checkIn("door-a", "G5", at: Timestamp.now().adding(milliseconds: 90_000_000)),
        ])
        let refused = try await alex.send("POST", HubPaths.checkIns(event: "ev"), json: ahead)
        #expect(refused.status == 422)
        #expect(try HubClient.problem(refused.data).field == "items.1.key.scannedAt")
        // Nothing of a refused batch was recorded.
        #expect(try await organizer.get(HubPaths.stats(event: "ev"), as: EventStats.self).checkedIn == 0)
        // Undo and walk-in times are held to the same span.
        let undo = UndoBatch(items: [UndoUpload(key: crafted.items[0].key, undoneAt: Timestamp(milliseconds: .max), station: "Door", operatorName: "Op")])
        let undoAnswer = try await alex.send("POST", HubPaths.undos(event: "ev"), json: undo)
        #expect(undoAnswer.status == 422)
        #expect(try HubClient.problem(undoAnswer.data).field == "items.0.undoneAt")
        let walkIn = WalkInBatch(items: [WalkInUpload(guestID: "w1", code: "W-1", name: "Walk", accessTypeID: "general", deviceID: "door-a",
                                                      station: "Door", operatorName: "Op", createdAt: Timestamp(milliseconds: -5))])
        let walkInAnswer = try await alex.send("POST", HubPaths.walkIns(event: "ev"), json: walkIn)
        #expect(walkInAnswer.status == 422)
        #expect(try HubClient.problem(walkInAnswer.data).type == PlausibleTime.implausibleTimeProblemType)
        #expect(try HubClient.problem(walkInAnswer.data).field == "items.0.createdAt")
        try await expectAlive(server)
    }

    @Test(.hangGuard) func aPlantedRowNeitherCrashesAnHonestUploadNorReachesTheRoster() async throws {
        let directory = TemporaryDirectory("hub-planted")
        defer { directory.remove() }
        let db = try prepare(sqliteIn: directory)
        // As an older hub accepted it: a check-in of G4 near Int64.min, straight into SQLite.
        try DatabaseSQL.plantCheckIn(db, event: "ev", device: "evil", guest: "G4", scannedAt: Int64.min + 1)
        let server = try HubProcess(db: db)
        defer { server.stop() }
        let alex = try await station(server, "alex@x.org", "staff-pass-1", device: "door-a", secret: "secret-of-door-a-1")
        for attempt in 0..<3 {
            let honest = CheckInBatch(items: [checkIn("door-a", "G4", at: Timestamp.now().adding(milliseconds: Int64(-attempt)))])
            let result = try await alex.post(HubPaths.checkIns(event: "ev"), honest, as: CheckInBatchResult.self).results[0]
            #expect(result.decision == (attempt == 0 ? .admitted : .duplicate))
            try await expectAlive(server)
        }
        let page = try await alex.get(HubPaths.roster(event: "ev") + "?cursor=0&limit=5000", as: RosterPage.self)
        #expect(!page.checkIns.contains { $0.key.deviceID == "evil" }, "the planted row is never replicated")
        #expect(page.checkIns.map(\.key.guestID) == ["G4"])
    }

    @Test(.hangGuard) func anotherSessionCannotClaimARegisteredDeviceNorUndoItsCheckIns() async throws {
        let server = try HubProcess(db: try prepare())
        defer { server.stop() }
        let alex = try await station(server, "alex@x.org", "staff-pass-1", device: "victim-dev", secret: "secret-of-victim-dev")
        let admitted = checkIn("victim-dev", "G2", at: .now())
        #expect(try await alex.post(HubPaths.checkIns(event: "ev"), CheckInBatch(items: [admitted]), as: CheckInBatchResult.self).results[0].status == .accepted)

        let mallory = try await signIn(server, "mal@x.org", "staff-pass-2")
        // Unregistered: no uploads at all.
        let unregistered = try await mallory.send("POST", HubPaths.undos(event: "ev"), json: UndoBatch(items: [
            UndoUpload(key: admitted.key, undoneAt: .now(), station: "X", operatorName: "Mallory"),
        ]))
        #expect(unregistered.status == 403)
        #expect(try HubClient.problem(unregistered.data).type == ProblemDocument.stationNotRegisteredProblemType)
        // Claiming the victim's id, without its secret or with a guessed one: 409.
        for secret in [nil, "guessed-secret-000000"] {
            let claim = try await mallory.send("POST", HubPaths.stations, json: StationRegistrationRequest(name: "Evil", deviceID: "victim-dev", deviceSecret: secret))
            #expect(claim.status == 409)
            #expect(try HubClient.problem(claim.data).type == ProblemDocument.deviceTakenProblemType)
        }
        // Registered as its own device, Mallory may neither upload as the victim nor undo its check-in.
        let issued = try await mallory.post(HubPaths.stations, StationRegistrationRequest(name: "Evil"), as: StationRegistration.self)
        #expect(issued.deviceID != "victim-dev")
        #expect((issued.deviceSecret?.count ?? 0) >= 16, "a station without a secret of its own gets one issued")
        let forged = try await mallory.send("POST", HubPaths.checkIns(event: "ev"), json: CheckInBatch(items: [checkIn("victim-dev", "G3", at: .now())]))
        #expect(forged.status == 403)
        #expect(try HubClient.problem(forged.data).type == ProblemDocument.wrongDeviceProblemType)
        #expect(try HubClient.problem(forged.data).field == "items.0.key.deviceID")
        let undo = try await mallory.post(HubPaths.undos(event: "ev"), UndoBatch(items: [
            UndoUpload(key: admitted.key, undoneAt: .now(), station: "X", operatorName: "Mallory"),
        ]), as: UndoBatchResult.self)
        #expect(undo.results.map(\.status) == [.forbidden])
        // The victim station itself still may, and the check-in it made is undone.
        let own = try await alex.post(HubPaths.undos(event: "ev"), UndoBatch(items: [
            UndoUpload(key: admitted.key, undoneAt: .now(), station: "Door", operatorName: "Alex"),
        ]), as: UndoBatchResult.self)
        #expect(own.results.map(\.status) == [.undone])

        // The same station signing in again, with its secret, takes the registration over.
        let again = try await station(server, "alex@x.org", "staff-pass-1", device: "victim-dev", secret: "secret-of-victim-dev")
        #expect(try await again.send("POST", HubPaths.checkIns(event: "ev"), json: CheckInBatch(items: [checkIn("victim-dev", "G5", at: .now())])).status == 200)
        let old = try await alex.send("POST", HubPaths.checkIns(event: "ev"), json: CheckInBatch(items: [checkIn("victim-dev", "G6", at: .now())]))
        #expect(old.status == 403, "the old session no longer speaks for the device")
        try await expectAlive(server)
    }

    @Test(.hangGuard) func walkInsAreValidatedLikeImportedRowsAndUnknownTypesAreFlagged() async throws {
        let server = try HubProcess(db: try prepare())
        defer { server.stop() }
        let alex = try await station(server, "alex@x.org", "staff-pass-1", device: "door-a", secret: "secret-of-door-a-1")
        func walkIn(name: String = "Walk In", email: String = "", code: String = "W-1", type: String = "general") -> WalkInBatch {
            WalkInBatch(items: [WalkInUpload(guestID: "w-\(code.hashValue)", code: code, name: name, email: email, accessTypeID: type,
                                             deviceID: "door-a", station: "Door a", operatorName: "Alex", createdAt: .now())])
        }
        let path = HubPaths.walkIns(event: "ev")
        let huge = try await alex.send("POST", path, json: walkIn(name: String(repeating: "x", count: 4 * 1024 * 1024)))
        #expect(huge.status == 413)
        let large = try await alex.send("POST", path, json: walkIn(name: String(repeating: "x", count: 3 * 1024 * 1024)))
        #expect(large.status == 422)
        #expect(try HubClient.problem(large.data).field == "items.0.name")
        let cases: [(WalkInBatch, String)] = [
            (walkIn(name: "   "), "items.0.name"),
            (walkIn(name: String(repeating: "é", count: 201)), "items.0.name"),
            (walkIn(email: "not an address"), "items.0.email"),
            (walkIn(code: ""), "items.0.code"),
            (walkIn(code: "W\u{7}1"), "items.0.code"),
            (walkIn(code: "W\u{202E}1"), "items.0.code"),
            (walkIn(code: "W 1"), "items.0.code"),
            (walkIn(code: String(repeating: "W", count: 257)), "items.0.code"),
        ]
        for (batch, field) in cases {
            let answer = try await alex.send("POST", path, json: batch)
            #expect(answer.status == 422, "\(field)")
            #expect(try HubClient.problem(answer.data).field == field)
        }
        let unknown = try await alex.post(path, walkIn(email: "walk@example.org", code: "W-9", type: "vip-backstage"), as: WalkInBatchResult.self)
        #expect(unknown.results.map(\.status) == [.accepted])
        #expect(unknown.results.first?.accessTypeID == "general")
        #expect(unknown.results.first?.review != nil)
        let organizer = try await signIn(server, "org@x.org", "organizer-pass")
        let conflicts = try await organizer.get(HubPaths.conflicts(event: "ev"), as: ConflictList.self)
        #expect(conflicts.reviews?.map(\.requestedAccessTypeID) == ["vip-backstage"])
        let roster = try await alex.get(HubPaths.roster(event: "ev"), as: RosterPage.self)
        #expect(!roster.accessTypes.contains { $0.id == "vip-backstage" }, "no access type was created")
        try await expectAlive(server)
    }

    @Test(.hangGuard) func thePreviousRefreshTokenWorksWithinTheGraceAndRevokesAfter() async throws {
        let server = try HubProcess(db: try prepare(), arguments: ["--refresh-grace-seconds", "2"])
        defer { server.stop() }
        let anonymous = HubClient(base: server.base)
        let first = try await anonymous.post(HubPaths.signIn, SignInRequest(email: "alex@x.org", password: "staff-pass-1"), as: TokenPair.self)
        let second = try await anonymous.post(HubPaths.refresh, RefreshRequest(refreshToken: first.refreshToken), as: TokenPair.self)
        // The answer was lost (or another process refreshed first): the old token, within the grace.
        let third = try await anonymous.post(HubPaths.refresh, RefreshRequest(refreshToken: first.refreshToken), as: TokenPair.self)
        #expect(third.sessionID == first.sessionID)
        #expect(third.refreshToken != second.refreshToken)
        #expect(try await HubClient(base: server.base, token: third.accessToken).send("GET", HubPaths.events).status == 200, "the session lives")
        // After the grace, the previous token (now `second`'s) is a copy: the session ends.
        try await Task.sleep(for: .milliseconds(2_600))
        let late = try await anonymous.send("POST", HubPaths.refresh, json: RefreshRequest(refreshToken: second.refreshToken))
        #expect(late.status == 401)
        #expect(try await HubClient(base: server.base, token: third.accessToken).send("GET", HubPaths.events).status == 401, "revoked")
        #expect(try await anonymous.send("POST", HubPaths.refresh, json: RefreshRequest(refreshToken: third.refreshToken)).status == 401)
        try await expectAlive(server)
    }
}
