import CheckInCore
import Foundation
import KioskTestSupport
import HubAPI
import HubServer
import Hummingbird
import HummingbirdTesting
import Testing

/// The stations page through the router: what each station reported, silent ones marked, and
/// only for organizers and support.
@Suite(.serialized) struct StationsPageTests {
    @Test func organizersSeeEachStationsPrinterInWordsAndASilentOneMarkedWhileStaffGetNotFound() async throws {
        let (app, store, directory) = try await DashboardRouterTests.makeApp()
        defer { directory.remove() }
        let report = { (name: String) in
            StationReport(name: name, version: ProductVersion.current, pending: 3, printer: StationPart(state: "fault", words: "Printer: out of labels"),
                          camera: StationPart(state: "scanning", words: "scanning: USB camera"), staffName: "Dana Door", stationTime: .now())
        }
        try await store.recordStationReport(event: "ev1", deviceID: "dev-a", report("Door A"), receivedAt: .now())
        try await store.recordStationReport(event: "ev1", deviceID: "dev-b", report("Door B"), receivedAt: Timestamp.now().adding(milliseconds: -600_000))
        try await app.test(.router) { client in
            var organizer = DashboardRouterTests.Browser()
            _ = try await organizer.signIn(client, email: "org@example.org")
            let live = DashboardRouterTests.text(try await organizer.get(client, "/events/ev1"))
            #expect(live.contains(#"data-test="dashboard-stations-link""#))
            let page = try await organizer.get(client, "/events/ev1/stations")
            #expect(page.status == .ok)
            let text = DashboardRouterTests.text(page)
            #expect(text.components(separatedBy: #"data-test="dashboard-station-row""#).count - 1 == 2)
            #expect(text.contains("Printer: out of labels"))
            #expect(text.contains(#"data-device-id="dev-a" data-silent="false""#))
            #expect(text.contains(#"data-device-id="dev-b" data-silent="true""#), "ten minutes without contact is silent")
            #expect(text.contains("3 pending · Dana Door · version \(ProductVersion.current)"))

            var door = DashboardRouterTests.Browser()
            _ = try await door.signIn(client, email: "door@example.org")
            #expect(try await door.get(client, "/events/ev1/stations").status == .forbidden, "check-in staff have the live page only, as in the API")
            #expect(!DashboardRouterTests.text(try await door.get(client, "/events/ev1")).contains("dashboard-stations-link"))
        }
        await store.close()
    }
}
