import Foundation
import KioskTestSupport
import RosterSync
import Station
import Testing

/// What the station puts in its health report to the hub: the words its console shows, from the
/// running station itself or, for a `kiosk sync` beside it, from its health file.
@Suite struct StationConditionTests {
    static let faulty = StationHealth(
        printer: PrinterCondition(state: .fault("Badge printer is out of labels", fix: "load a new roll"), name: "cups:BrotherQL", waiting: 2),
        camera: .fault(.unplugged, fix: "Plug the camera back in."))

    @Test func theReportCarriesThePrinterAndCameraStateWordsAndTheWordsTheConsoleShows() {
        let condition = Self.faulty.stationCondition
        // The print queue's words name the printer: the hub's page adds "Printer:" itself.
        #expect(condition.printer == StationCondition.Part(state: "fault", words: "Badge printer is out of labels · 2 badges waiting"))
        #expect(condition.camera == StationCondition.Part(state: "unplugged", words: "No camera — type codes or use the scanner"))
        #expect(StationHealth().stationCondition.printer == StationCondition.Part(state: "off", words: "printing off"))
    }

    @Test func kioskSyncBesideARunningStationReportsWhatItsHealthFileSaysAndAloneNothing() {
        let directory = TemporaryDirectory("health-report")
        defer { directory.remove() }
        let file = HealthFile(dataDirectory: directory.url)
        #expect(file.runningCondition() == .unknown)
        file.write(Self.faulty)  // as this process: a running station
        #expect(file.runningCondition() == Self.faulty.stationCondition)
        file.remove()
        #expect(file.runningCondition() == .unknown)
    }
}
