import CheckInCore
import Foundation
import HubAPI
import HubServer
import KioskTestSupport
import Testing

/// The stations' latest health reports: SQLite and PostgreSQL keep and list them alike.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking) struct StationReportStoreTests {
    static func report(_ name: String, pending: Int = 0, printer: StationPart? = StationPart(state: "ready", words: "printer ready"),
                       at ms: Int64 = 1_790_000_000_000) -> StationReport {
        StationReport(name: name, version: ProductVersion.current, pending: pending, printer: printer,
                      camera: StationPart(state: "scanning", words: "scanning: camera /dev/video0"), staffName: "Alex",
                      stationTime: Timestamp(milliseconds: ms))
    }

    @Test(arguments: StoreContractTests.kinds) func theLatestReportOfEachStationIsKeptPerEventWithItsArrival(kind: String) async throws {
        let (store, directory) = try await StoreContractTests.makeStore(kind)
        defer { directory.remove() }
        for event in ["ev1", "ev2"] { try await store.createEvent(EventSummary(id: event, name: event), audit: nil) }
        let first = Timestamp(milliseconds: 1_790_000_001_000), later = Timestamp(milliseconds: 1_790_000_009_000)
        try await store.recordStationReport(event: "ev1", deviceID: "dev-b", Self.report("Door B"), receivedAt: first)
        try await store.recordStationReport(event: "ev1", deviceID: "dev-a", Self.report("Door A", pending: 3), receivedAt: first)
        let outOfLabels = StationPart(state: "fault", words: "Printer: out of labels · 2 badges waiting")
        try await store.recordStationReport(event: "ev1", deviceID: "dev-a", Self.report("Door A", pending: 1, printer: outOfLabels), receivedAt: later)
        // A one-shot `kiosk sync` knows no printer: kept as unknown, not as empty words.
        try await store.recordStationReport(event: "ev2", deviceID: "dev-a", Self.report("Door A", printer: nil), receivedAt: first)

        let listed = try await store.stationContacts(event: "ev1")
        #expect(listed.map(\.deviceID) == ["dev-a", "dev-b"])
        #expect(listed[0] == StationContact(deviceID: "dev-a", report: Self.report("Door A", pending: 1, printer: outOfLabels), receivedAt: later))
        #expect(listed[1] == StationContact(deviceID: "dev-b", report: Self.report("Door B"), receivedAt: first))
        let other = try await store.stationContacts(event: "ev2")
        #expect(other.count == 1)
        #expect(other.first?.report.printer == nil)
        #expect(other.first?.report.camera?.words == "scanning: camera /dev/video0")
        #expect(try await store.stationContacts(event: "none").isEmpty)
        await store.close()
    }

    @Test(arguments: StoreContractTests.kinds) func aReportForAnEventThatDoesNotExistIsRefused(kind: String) async throws {
        let (store, directory) = try await StoreContractTests.makeStore(kind)
        defer { directory.remove() }
        await #expect(throws: HubStoreError.unknownEvent("nope")) {
            try await store.recordStationReport(event: "nope", deviceID: "dev-a", Self.report("Door A"), receivedAt: .now())
        }
        await store.close()
    }
}
