import CheckInCore
import Foundation
import HubAPI
import KioskStore
import KioskTestSupport
import Synchronization
import Testing
@testable import RosterSync

/// The health report a station sends with each sync: what it carries, and that it never makes a
/// sync fail (an older hub without the route, a hub in trouble).
@Suite(.hangGuard) struct StationReportSyncTests {
    static let ready = StationCondition(printer: .init(state: "ready", words: "printer ready"),
                                        camera: .init(state: "off", words: "no camera — type codes or use the scanner"))

    @Test func eachSyncReportsTheStationsPrinterCameraVersionPendingAndStaff() async throws {
        let hub = try FakeHub(guests: 5)
        defer { hub.stop() }
        hub.state.withLock { $0.takesStationReports = true }
        let station = try await TestStation.signedIn(to: hub)
        defer { station.directory.remove() }
        await station.engine.reportCondition { Self.ready }
        let before = Timestamp.now()
        try await station.engine.syncNow()
        let reports = hub.state.withLock { $0.stationReports }
        let sent = try #require(reports.last)
        #expect(sent.deviceID == station.database.deviceID)
        #expect(sent.report.name == "Door 2")
        #expect(sent.report.version == ProductVersion.current)
        #expect(sent.report.pending == 0)
        #expect(sent.report.printer == StationPart(state: "ready", words: "printer ready"))
        #expect(sent.report.camera?.state == "off")
        #expect(sent.report.staffName == "Alex")
        #expect(sent.report.stationTime >= before)
    }

    @Test func withoutAStationRunningPrinterAndCameraAreReportedAsUnknown() async throws {
        let hub = try FakeHub(guests: 5)
        defer { hub.stop() }
        hub.state.withLock { $0.takesStationReports = true }
        let station = try await TestStation.signedIn(to: hub)
        defer { station.directory.remove() }
        try await station.engine.syncNow()
        let sent = try #require(hub.state.withLock { $0.stationReports.last })
        #expect(sent.report.printer == nil)
        #expect(sent.report.camera == nil)
    }

    @Test(arguments: [404, 500, 422])
    func aHubThatRefusesOrLacksStationReportsStillSyncsEverything(status: Int) async throws {
        let hub = try FakeHub(guests: 5)
        defer { hub.stop() }
        // 404 is what a hub before station reports answers; the others are faults.
        if status != 404 {
            hub.state.withLock { $0.takesStationReports = true }
            hub.inject("/stations/", .json(status, "{}"), times: 10)
        }
        let station = try await TestStation.signedIn(to: hub)
        defer { station.directory.remove() }
        await station.engine.reportCondition { Self.ready }
        try await station.engine.syncNow()
        _ = try await station.checkIn(1, at: Timestamp.now().milliseconds)
        let report = try await station.engine.syncNow()
        #expect(report.accepted == 1)
        #expect(try station.database.outbox.pendingCount() == 0)
        let attempts = hub.state.withLock { $0.requests.filter { $0.hasPrefix("PUT \(HubPaths.stationReports(event: hub.eventID))/") } }
        #expect(attempts.count == 2)
    }
}
