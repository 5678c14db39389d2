import CheckInCore
import Foundation
import KioskStore
import Testing
@testable import RosterSync

@Suite struct SyncPolicyTests {
    @Test func backoffDoublesFromOneSecondAndStaysAtThirty() {
        let schedule = RetrySchedule()
        let waits = (1...8).map { schedule.delay(afterFailures: $0) }
        #expect(waits == [1, 2, 4, 8, 16, 30, 30, 30].map { Duration.seconds($0) })
        #expect(schedule.delay(afterFailures: 0) == .zero)
    }

    @Test func retryAfterOverridesTheScheduleWithinBounds() {
        let schedule = RetrySchedule()
        #expect(schedule.delay(afterFailures: 1, retryAfterSeconds: 7) == .seconds(7))
        #expect(schedule.delay(afterFailures: 6, retryAfterSeconds: 100_000) == .seconds(300))
        #expect(schedule.delay(afterFailures: 3, retryAfterSeconds: nil) == .seconds(4))
    }

    @Test func slowAnswersDegradeAndThreeFailuresGoOffline() {
        var monitor = ConnectivityMonitor(state: .offline)
        monitor.answered(after: .milliseconds(200))
        #expect(monitor.state == .online)
        monitor.answered(after: .milliseconds(3_500))
        #expect(monitor.state == .degraded)
        #expect(monitor.state.offlineFirst)
        monitor.answered(after: .milliseconds(100))
        #expect(monitor.state == .online)
        monitor.failed()
        monitor.failed()
        #expect(monitor.state == .degraded)
        monitor.failed()
        #expect(monitor.state == .offline)
        monitor.answered(after: .milliseconds(10))
        #expect(monitor.state == .online)
    }

    @Test func signedOutStaysUntilTheNextSignIn() {
        var monitor = ConnectivityMonitor(state: .online)
        monitor.signedOut()
        monitor.answered(after: .milliseconds(10))
        monitor.failed()
        #expect(monitor.state == .signedOut)
        monitor.signedIn()
        #expect(monitor.state == .online)
    }

    @Test func sessionFileIsReadableOnlyByItsOwner() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try KioskDatabase.open(dataDirectory: directory, key: .keyFile(directory.deletingLastPathComponent().appendingPathComponent("\(directory.lastPathComponent).key")))
        let file = SessionFile(database: database)
        let old = umask(0)
        defer { umask(old) }
        let session = StationSession(hubURL: "http://127.0.0.1:1", accessToken: "a", accessExpiresAt: .now(), refreshToken: "r",
                                     refreshExpiresAt: .now(), sessionID: "s", staffEmail: "e@x.org", staffName: "Alex", staffRole: "staff")
        try file.save(session)
        let mode = try FileManager.default.attributesOfItem(atPath: file.url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try file.load() == session)
        file.remove()
        #expect(try file.load() == nil)
    }
}
