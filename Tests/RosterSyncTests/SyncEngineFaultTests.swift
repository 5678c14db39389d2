import CheckInCore
import Foundation
import GRDB
import HubAPI
import KioskStore
import KioskTestSupport
import Synchronization
import Testing
@testable import RosterSync

/// A station data directory with its database and engine, signed in to `hub`.
struct TestStation {
    let directory: TemporaryDirectory
    let database: KioskDatabase
    let engine: SyncEngine

    static func signedIn(to hub: FakeHub, pageSize: Int = 1_000, timeout: Duration = .seconds(10)) async throws -> TestStation {
        let directory = TemporaryDirectory("sync-station")
        let database = try KioskDatabase.open(dataDirectory: directory.url)
        var configuration = SyncConfiguration()
        configuration.pageSize = pageSize
        configuration.requestTimeout = timeout
        configuration.guestsPerTransaction = pageSize * 2
        let engine = try SyncEngine(database: database, configuration: configuration)
        _ = try await engine.signIn(hubURL: hub.url, email: "alex@example.org", password: "pw", stationName: "Door 2")
        _ = try await engine.use(event: hub.eventID)
        return TestStation(directory: directory, database: database, engine: engine)
    }

    /// Checks a guest in at `ms` (offline or not: the store does not care).
    func checkIn(_ index: Int, at ms: Int64) async throws -> KioskStore.CheckInResult {
        try await database.desk.checkIn(CheckInRequest(rawCode: String(format: "CODE%06d", index), source: .typed, at: Timestamp(milliseconds: ms)))
    }
}

@Suite(.hangGuard) struct SyncEngineFaultTests {
    let base: Int64 = 1_790_000_000_000

    @Test func fullDownloadThenDeltaBringsTheRosterAndOtherStationsCheckIns() async throws {
        let hub = try FakeHub(guests: 2_500)
        defer { hub.stop() }
        let station = try await TestStation.signedIn(to: hub)
        defer { station.directory.remove() }
        let progress = Mutex<[SyncProgress]>([])
        let report = try await station.engine.syncNow { value in progress.withLock { $0.append(value) } }
        #expect(report.fullDownload)
        #expect(report.guestsPulled == 2_500)
        #expect(try station.database.status().guests == 2_500)
        let last = progress.withLock { $0.last }
        guard case .roster(let done, let total, _) = last else { Issue.record("no roster progress"); return }
        #expect(done == 2_500)
        #expect(total == 2_500)

        hub.seedGuests(100, from: 2_500)
        _ = hub.decide(CheckInUpload(key: IdempotencyKey(deviceID: "other", guestID: "g7", scannedAt: Timestamp(milliseconds: base)),
                                     station: "Door 1", operatorName: "Sam", source: .camera))
        let delta = try await station.engine.syncNow()
        #expect(!delta.fullDownload)
        #expect(delta.guestsPulled == 100)
        #expect(try station.database.status().guests == 2_600)
        let seven = try #require(try station.database.roster.guest(code: "CODE000007"))
        #expect(seven.checkedIn?.by == "Sam")
        #expect(seven.checkedIn?.station == "Door 1")
    }

    @Test func offlineCheckInsReachTheHubInScanOrderExactlyOnce() async throws {
        let hub = try FakeHub(guests: 50)
        defer { hub.stop() }
        let station = try await TestStation.signedIn(to: hub)
        defer { station.directory.remove() }
        try await station.engine.syncNow()
        // Recorded out of order on purpose: the outbox replays by scan time.
        for (index, offset) in [(3, 3_000), (1, 1_000), (2, 2_000)] { _ = try await station.checkIn(index, at: base + Int64(offset)) }
        hub.inject("/check-ins", .json(500, "{}"))
        await #expect(throws: SyncError.self) { try await station.engine.syncNow() }
        #expect(try station.database.outbox.pendingCount() == 3)
        try await station.engine.syncNow()
        #expect(try station.database.outbox.pendingCount() == 0)
        let admitted = hub.state.withLock { $0.admitted.map(\.key.guestID) }
        #expect(admitted == ["g1", "g2", "g3"])
        try await station.engine.syncNow()
        #expect(hub.state.withLock { $0.admitted.count } == 3)
    }

    @Test func aDuplicateAnswerUpdatesTheLocalRecordWithWhoWhereWhen() async throws {
        let hub = try FakeHub(guests: 10)
        defer { hub.stop() }
        let station = try await TestStation.signedIn(to: hub)
        defer { station.directory.remove() }
        try await station.engine.syncNow()
        _ = hub.decide(CheckInUpload(key: IdempotencyKey(deviceID: "other", guestID: "g4", scannedAt: Timestamp(milliseconds: base)),
                                     station: "Door 1", operatorName: "Sam", source: .camera))
        let result = try await station.checkIn(4, at: base + 10_000)
        let key = try #require(result.recorded?.key.description)
        let report = try await station.engine.syncNow()
        #expect(report.duplicates == 1)
        let status = try #require(try station.database.hubStatus(idempotencyKey: key))
        #expect(status.status == "duplicate")
        #expect(status.detail?.contains("Sam") == true)
        #expect(status.detail?.contains("Door 1") == true)
        #expect(try station.database.outbox.pendingCount() == 0)
    }

    @Test func aPermanentRejectionIsMarkedSurfacedAndNotRetried() async throws {
        let hub = try FakeHub(guests: 10)
        defer { hub.stop() }
        let station = try await TestStation.signedIn(to: hub)
        defer { station.directory.remove() }
        try await station.engine.syncNow()
        _ = hub.decide(CheckInUpload(key: IdempotencyKey(deviceID: "other", guestID: "g5", scannedAt: Timestamp(milliseconds: base)),
                                     station: "Door 1", operatorName: "Sam", source: .camera))
        _ = try await station.checkIn(5, at: base + 120_000)
        _ = try await station.checkIn(6, at: base + 121_000)
        let report = try await station.engine.syncNow()
        #expect(report.rejected == 1)
        #expect(report.accepted == 1)
        let rejected = try station.database.outbox.rejectedOutbox()
        #expect(rejected.count == 1)
        #expect(rejected.first?.lastError?.contains("already checked in") == true)
        let before = hub.state.withLock { $0.received.count }
        try await station.engine.syncNow()
        #expect(hub.state.withLock { $0.received.count } == before)
        #expect(await station.engine.status().rejected == 1)
    }

    @Test func aBatchRefusedAsAWholeIsRetriedOneByOneSoOneBadEntryDoesNotBlockTheRest() async throws {
        let hub = try FakeHub(guests: 10)
        defer { hub.stop() }
        let station = try await TestStation.signedIn(to: hub)
        defer { station.directory.remove() }
        try await station.engine.syncNow()
        for index in 1...3 { _ = try await station.checkIn(index, at: base + Int64(index) * 1_000) }
        hub.inject("/check-ins", .json(422, #"{"type":"about:blank","title":"bad","status":422,"detail":"items.0 is wrong"}"#), times: 2)
        let report = try await station.engine.syncNow()
        #expect(report.rejected == 1)
        #expect(report.accepted == 2)
        #expect(try station.database.outbox.pendingCount() == 0)
    }

    @Test(arguments: [
        ScriptedHTTPServer.Response.json(500, "oops"),
        ScriptedHTTPServer.Response.json(200, "{not json"),
        ScriptedHTTPServer.Response(status: 200, headers: ["Content-Type": "application/json"],
                                    body: Data(#"{"results":[{"key":{"deviceID":"x","guestID":"y","scannedAt":1},"status":"accepted","decision":"admitted"}]}"#.utf8), truncate: true),
        ScriptedHTTPServer.Response.json(200, #"{"results":[]}"#),
        ScriptedHTTPServer.Response.json(503, "{}"),
    ])
    func faultAnswersKeepEveryCheckInPending(fault: ScriptedHTTPServer.Response) async throws {
        let hub = try FakeHub(guests: 10)
        defer { hub.stop() }
        let station = try await TestStation.signedIn(to: hub)
        defer { station.directory.remove() }
        try await station.engine.syncNow()
        _ = try await station.checkIn(1, at: base)
        hub.inject("/check-ins", fault)
        await #expect(throws: SyncError.self) { try await station.engine.syncNow() }
        #expect(try station.database.outbox.pendingCount() == 1)
        #expect(await station.engine.status().state == .degraded)
        try await station.engine.syncNow()
        #expect(try station.database.outbox.pendingCount() == 0)
        #expect(hub.state.withLock { $0.admitted.count } == 1)
    }

    @Test func tooManyRequestsHonoursRetryAfter() async throws {
        let hub = try FakeHub(guests: 10)
        defer { hub.stop() }
        let station = try await TestStation.signedIn(to: hub)
        defer { station.directory.remove() }
        hub.inject("/roster", .json(429, "{}", headers: ["Retry-After": "7"]))
        await #expect(throws: SyncError.unreachable("HTTP 429")) { try await station.engine.syncNow() }
        #expect(await station.engine.delayAfterFailure(.unreachable("HTTP 429")) == .seconds(7))
        // The next wait falls back to the schedule.
        #expect(await station.engine.delayAfterFailure(.unreachable("x")) == .seconds(1))
    }

    @Test func anExpiredTokenIsRefreshedSilently() async throws {
        let hub = try FakeHub(guests: 10)
        defer { hub.stop() }
        let station = try await TestStation.signedIn(to: hub)
        defer { station.directory.remove() }
        try await station.engine.syncNow()
        _ = try await station.checkIn(1, at: base)
        let before = try #require(await station.engine.currentSession())
        hub.expireAccessTokens()
        try await station.engine.syncNow()
        #expect(try station.database.outbox.pendingCount() == 0)
        let after = try #require(await station.engine.currentSession())
        #expect(after.refreshToken != before.refreshToken)
        #expect(try SessionFile(database: station.database).load() == after)
    }

    @Test func aRefusedRefreshSignsOutAndKeepsEveryPendingCheckIn() async throws {
        let hub = try FakeHub(guests: 10)
        defer { hub.stop() }
        let station = try await TestStation.signedIn(to: hub)
        defer { station.directory.remove() }
        try await station.engine.syncNow()
        for index in 1...3 { _ = try await station.checkIn(index, at: base + Int64(index)) }
        hub.expireAccessTokens()
        hub.state.withLock { $0.refuseRefresh = true }
        await #expect(throws: SyncError.signedOut) { try await station.engine.syncNow() }
        #expect(await station.engine.status().state == .signedOut)
        #expect(try station.database.outbox.pendingCount() == 3)
        #expect(try station.database.setting(.syncState) == "signed_out")
        // Signing in again resyncs what was kept.
        hub.state.withLock { $0.refuseRefresh = false }
        _ = try await station.engine.signIn(hubURL: hub.url, email: "alex@example.org", password: "pw", stationName: nil)
        try await station.engine.syncNow()
        #expect(try station.database.outbox.pendingCount() == 0)
        #expect(hub.state.withLock { $0.admitted.map(\.key.guestID) } == ["g1", "g2", "g3"])
    }

    @Test func slowAnswersSwitchToDegradedAndTimeoutsAreBounded() async throws {
        let hub = try FakeHub(guests: 10)
        defer { hub.stop() }
        let station = try await TestStation.signedIn(to: hub, timeout: .seconds(2))
        defer { station.directory.remove() }
        try await station.engine.syncNow()
        _ = try await station.checkIn(1, at: base)
        hub.inject("/check-ins", ScriptedHTTPServer.Response(status: 200, delay: 4))
        await #expect(throws: SyncError.self) { try await station.engine.syncNow() }
        #expect(await station.engine.status().state.offlineFirst)
        #expect(try station.database.outbox.pendingCount() == 1)
    }

    @Test func threeConsecutiveFailuresMeanOffline() async throws {
        let hub = try FakeHub(guests: 10)
        let station = try await TestStation.signedIn(to: hub)
        defer { station.directory.remove() }
        try await station.engine.syncNow()
        _ = try await station.checkIn(1, at: base)
        hub.stop()
        for _ in 0..<3 { await #expect(throws: SyncError.self) { try await station.engine.syncNow() } }
        #expect(await station.engine.status().state == .offline)
        #expect(try station.database.status().syncState == "offline")
        #expect(try station.database.outbox.pendingCount() == 1)
    }

    @Test func signOutRefusesWithPendingAndKeepOrDiscardDecide() async throws {
        let hub = try FakeHub(guests: 10)
        defer { hub.stop() }
        let station = try await TestStation.signedIn(to: hub)
        defer { station.directory.remove() }
        try await station.engine.syncNow()
        for index in 1...2 { _ = try await station.checkIn(index, at: base + Int64(index)) }
        await #expect(throws: PendingChangesRefusal(pending: 2, reason: nil)) { try await station.engine.signOut(nil) }
        #expect(PendingChangesRefusal(pending: 2, reason: nil).description.hasPrefix("2 check-ins haven't synced"))
        _ = try await station.engine.signOut(.keep)
        #expect(try station.database.outbox.pendingCount() == 2)
        #expect(try station.database.status().guests == 10)
        #expect(await station.engine.status().state == .signedOut)
        _ = try await station.engine.signIn(hubURL: hub.url, email: "alex@example.org", password: "pw", stationName: nil)
        _ = try await station.checkIn(3, at: base + 3)
        let discarded = try await station.engine.signOut(.discard)
        #expect(discarded == 3)
        #expect(try station.database.outbox.pendingCount() == 0)
        #expect(try SessionFile(database: station.database).load() == nil)
        #expect(hub.state.withLock { $0.admitted.isEmpty })
    }

    @Test func signOutWaitDrainsFirst() async throws {
        let hub = try FakeHub(guests: 10)
        defer { hub.stop() }
        let station = try await TestStation.signedIn(to: hub)
        defer { station.directory.remove() }
        try await station.engine.syncNow()
        for index in 1...4 { _ = try await station.checkIn(index, at: base + Int64(index)) }
        _ = try await station.engine.signOut(.wait)
        #expect(hub.state.withLock { $0.admitted.count } == 4)
        #expect(try station.database.status().guests == 0, "the roster is cleared: every check-in reached the hub")
        let archived = try station.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM check_ins_archive") }
        #expect(archived == 4, "this station's own check-ins are kept for the record")
    }

    @Test func walkInsAndUndosGoInOrderWithTheirCheckIns() async throws {
        let hub = try FakeHub(guests: 10)
        defer { hub.stop() }
        let station = try await TestStation.signedIn(to: hub)
        defer { station.directory.remove() }
        try await station.engine.syncNow()
        let walkIn = try await station.database.desk.addWalkIn(WalkInRequest(name: "Kim", accessTypeID: "general", at: Timestamp(milliseconds: base)))
        _ = try await station.checkIn(2, at: base + 1_000)
        _ = try await station.database.desk.undoLastCheckIn(at: Timestamp(milliseconds: base + 2_000))
        let report = try await station.engine.syncNow()
        #expect(report.accepted == 4)
        // The hub knows the walk-in by the id the station gave it, not the station's own id of it.
        let walkInStationID = try #require(walkIn.guest?.guest.id)
        let walkInID = try #require(try station.database.roster.hubID(ofGuest: walkInStationID))
        #expect(hub.state.withLock { $0.walkIns } == [walkInID])
        #expect(hub.state.withLock { $0.admitted.map(\.key.guestID) } == [walkInID, "g2"])
        #expect(hub.state.withLock { $0.undone.map(\.guestID) } == ["g2"])
        let requests = hub.state.withLock { $0.requests.filter { $0.hasPrefix("POST /v1/events") } }
        #expect(requests.map { $0.split(separator: "/").last! } == ["walk-ins", "check-ins", "undos"])
    }

    @Test func aNudgeUploadsAtOnceWhileTheNextPullIsAMinuteAway() async throws {
        let hub = try FakeHub(guests: 10)
        defer { hub.stop() }
        let station = try await TestStation.signedIn(to: hub)
        defer { station.directory.remove() }
        var configuration = SyncConfiguration()
        configuration.pullInterval = .seconds(60)
        // Following off: its long-polls are roster requests too (this test counts the pulls).
        configuration.followWait = .zero
        let engine = try SyncEngine(database: station.database, configuration: configuration)
        let loop = Task { try await engine.run() }
        defer { loop.cancel() }
        var updates = engine.statusUpdates.makeAsyncIterator()
        while let status = await updates.next(), status.lastPull == nil {}
        let pullsBefore = hub.state.withLock { $0.requests.filter { $0.contains("/roster") }.count }
        _ = try await station.checkIn(1, at: base)
        engine.nudge()
        while let status = await updates.next() {
            if status.pending == 0 && status.lastPush != nil { break }
        }
        #expect(hub.state.withLock { $0.admitted.count } == 1, "uploaded long before the next pull")
        #expect(hub.state.withLock { $0.requests.filter { $0.contains("/roster") }.count } == pullsBefore, "a nudge pushes without pulling")
    }

    @Test func aNudgeNeverShortensTheBackoffTheHubAskedFor() async throws {
        let hub = try FakeHub(guests: 10)
        defer { hub.stop() }
        let station = try await TestStation.signedIn(to: hub)
        defer { station.directory.remove() }
        _ = try await station.engine.syncNow()
        hub.inject("/roster", .json(429, "{}", headers: ["Retry-After": "120"]))
        let loop = Task { try await station.engine.run() }
        defer { loop.cancel() }
        // The engine has taken the 429 in: from then on it keeps quiet. (A fixed pause was once
        // too short on CI's loaded machine: a nudge went out before the answer was read.)
        while await station.engine.quietUntil == nil { try await Task.sleep(for: .milliseconds(20)) }
        // A request either loop sent before the 429 came back may still be on its way: wait until
        // the hub has seen nothing new for half a second.
        var requests = hub.state.withLock { $0.requests.count }
        while true {
            try await Task.sleep(for: .milliseconds(500))
            let now = hub.state.withLock { $0.requests.count }
            if now == requests { break }
            requests = now
        }
        _ = try await station.checkIn(1, at: base)
        for _ in 0..<5 {
            station.engine.nudge()
            try await Task.sleep(for: .milliseconds(100))
        }
        try await Task.sleep(for: .milliseconds(500))
        #expect(hub.state.withLock { $0.requests.count } == requests, "nothing is sent while the hub asked to wait 120 s (long, for a starved test run)")
        #expect(try station.database.outbox.pendingCount() == 1)
    }
}
