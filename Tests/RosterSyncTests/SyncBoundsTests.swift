import CheckInCore
import Foundation
import HubAPI
import KioskStore
import KioskTestSupport
import Synchronization
import Testing
@testable import RosterSync

/// What a broken or hostile hub answer cannot do to a station: hold unbounded memory, plant a
/// check-in with an impossible time, or make a change recorded with a wrong clock disappear.
@Suite(.hangGuard) struct SyncBoundsTests {
    let base: Int64 = 1_790_000_000_000

    @Test func anAnswerLargerThanTheCapIsRefusedWhileItArrivesAndNothingIsLost() async throws {
        let hub = try FakeHub(guests: 10)
        defer { hub.stop() }
        let station = try await TestStation.signedIn(to: hub)
        defer { station.directory.remove() }
        _ = try await station.engine.syncNow()
        _ = try await station.checkIn(1, at: base)
        var configuration = SyncConfiguration()
        configuration.maximumAnswerBytes = 64 * 1024
        let bounded = try SyncEngine(database: station.database, configuration: configuration)
        // 8 MB of JSON whitespace: valid, but no hub answer is that large.
        hub.inject("/roster", ScriptedHTTPServer.Response(status: 200, headers: ["Content-Type": "application/json"],
                                                          body: Data(repeating: 0x20, count: 8 * 1_048_576)))
        await #expect(throws: SyncError.self) { try await bounded.syncNow() }
        let status = await bounded.status()
        #expect(status.lastError?.contains("larger than") == true, "\(status.lastError ?? "")")
        #expect(try station.database.outbox.pendingCount() == 1, "the check-in waits for the next sync")
        _ = try await bounded.syncNow()
        #expect(try station.database.outbox.pendingCount() == 0)
    }

    @Test func rosterCheckInsWithImpossibleTimesAreSkippedAndCounted() async throws {
        let hub = try FakeHub(guests: 10)
        defer { hub.stop() }
        hub.state.withLock { state in
            for (index, ms) in [Int64.min, -5, Int64.max, base].enumerated() {
                state.seq += 1
                state.checkInLog.append((state.seq, RosterCheckIn(
                    key: IdempotencyKey(deviceID: "planted", guestID: "g\(index + 1)", scannedAt: Timestamp(milliseconds: ms)),
                    station: "X", operatorName: "Y", source: .typed, direction: .entry)))
            }
        }
        let station = try await TestStation.signedIn(to: hub)
        defer { station.directory.remove() }
        let report = try await station.engine.syncNow()
        #expect(report.skipped == 3)
        #expect(report.checkInsPulled == 4)
        // The guests of the skipped rows are decided as never checked in, without a trap.
        for index in 1...3 {
            #expect(try await station.checkIn(index, at: base).decision == .admitted)
        }
        #expect(try await station.checkIn(4, at: base + 60_000).decision.kind == .alreadyCheckedIn)
    }

    @Test func aChangeTheHubRefusesForItsTimeIsHeldNeverDroppedAndGoesOnceTheHubAgrees() async throws {
        let hub = try FakeHub(guests: 10)
        defer { hub.stop() }
        let station = try await TestStation.signedIn(to: hub)
        defer { station.directory.remove() }
        _ = try await station.engine.syncNow()
        _ = try await station.checkIn(1, at: base)
        _ = try await station.checkIn(2, at: base + 1)
        let problem = ProblemDocument(type: PlausibleTime.implausibleTimeProblemType, title: "Implausible time", status: 422,
                                      detail: "scannedAt is before 2020", field: "items.0.key.scannedAt")
        let body = try HubJSON.encoder().encode(problem)
        // The batch, then the first change alone, are refused; the second alone goes through.
        hub.inject("/check-ins", ScriptedHTTPServer.Response(status: 422, headers: ["Content-Type": "application/problem+json"], body: body), times: 2)
        let report = try await station.engine.syncNow()
        #expect(report.held == 1)
        #expect(report.accepted == 1)
        #expect(report.rejected == 0)
        #expect(try station.database.outbox.pendingCount() == 1)
        #expect(try station.database.outbox.rejectedOutbox().isEmpty)
        #expect(try station.database.outbox.pendingOutbox().first?.hold == .implausibleTime)
        // The next sync asks again (held changes are released by the pull) and the hub takes it.
        let later = try await station.engine.syncNow()
        #expect(later.accepted == 1)
        #expect(try station.database.outbox.pendingCount() == 0)
    }
}
