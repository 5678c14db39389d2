import Foundation
import KioskTestSupport
import PrintTestSupport
import Testing

/// A real `kiosk run --headless` printing through a private cupsd and its printer simulator, in
/// the faults a volunteer met at the door: the printer runs out of labels, and a printer that
/// took a badge stops answering. The job's own outcome and the printer's current state decide,
/// and a badge that may already have come out is never printed again by itself.
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct PrinterTruthTests {
    /// A station on the rig with `settings` (kiosk.conf lines), the demo roster, and its log kept.
    func station(_ rig: CupsRig, _ directory: TemporaryDirectory, settings: [String]) throws -> StationProcess {
        let configuration = directory.appending("kiosk.conf")
        try settings.joined(separator: "\n").write(to: configuration, atomically: true, encoding: .utf8)
        let station = try StationProcess(["run", "--headless", "--config", configuration.path, "--data-dir", directory.appending("data").path],
                                         headless: true, environment: ["CUPS_SERVER": rig.server], log: directory.appending("station.log"))
        station.wait(limit: 60) { lines in lines.contains { $0.contains(#""event":"ready""#) } }
        return station
    }

    /// The states the station reported for badge job `job`, in order.
    func states(_ station: StationProcess, job: Int) -> [String] {
        station.output.compactMap { line in
            guard line.contains(#""event":"print_state""#), let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["job"] as? Int == job else { return nil }
            return object["state"] as? String
        }
    }

    /// The printer part of the station's last `health` line.
    func printerHealth(_ station: StationProcess) -> [String: Any]? {
        station.output.last { $0.contains(#""event":"health""#) }
            .flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }?["printer"] as? [String: Any]
    }

    /// What the printer of `queue` printed, one title per print, in order.
    func printed(_ rig: CupsRig, _ queue: String) -> [String] { rig.printLog(queue) }

    @Test func outOfLabelsClearsOnceANewRollIsInAndTheBadgeWaitingInThePrinterIsRecordedPrintedOnce() throws {
        let rig = try CupsRig(queues: ["badge"])
        defer { rig.stop() }
        let directory = TemporaryDirectory("printer-truth")
        defer { directory.remove() }
        try rig.setMode("badge", "media-empty")
        let station = try station(rig, directory, settings: ["printer = badge", "print_timeout_seconds = 3"])
        defer { station.kill9() }

        station.send("DEMO-0001")
        station.wait(limit: 60) { _ in printerHealth(station)?["message"].map { "\($0)".contains("out of labels") } == true }
        #expect(printerHealth(station)?["fix"] as? String != nil, "the fault says what to do")
        // Well past the print timeout: the badge waits in the printer, it is not given up on.
        Thread.sleep(forTimeInterval: 6)
        try rig.setMode("badge", "ok")
        station.wait(limit: 60) { _ in states(station, job: 1).last == "printed" }
        #expect(states(station, job: 1).last == "printed", "the badge that came out is recorded printed: \(states(station, job: 1))")

        // The next attendee's badge prints: nothing left from the empty roll holds it.
        station.send("DEMO-0002")
        station.wait(limit: 60) { _ in states(station, job: 2).last == "printed" }
        #expect(states(station, job: 2).last == "printed", "\(states(station, job: 2))")
        #expect(!states(station, job: 2).contains("held"), "\(states(station, job: 2))")
        #expect(printed(rig, "badge") == ["Badge job 1", "Badge job 2"], "each badge came out once")
        #expect(printerHealth(station)?["state"] as? String != "fault", "\(printerHealth(station) ?? [:])")
        #expect(!station.output.contains { $0.contains(#""event":"stale_badges""#) }, "nobody is asked to print a badge that came out")
    }

    @Test func aBadgeTheHungPrinterTookIsNotPrintedOnTheOtherPrinterButShownAsAPossibleDuplicate() throws {
        let rig = try CupsRig(queues: ["badge", "badge2"])
        defer { rig.stop() }
        let directory = TemporaryDirectory("printer-truth")
        defer { directory.remove() }
        try rig.setMode("badge", "hang")
        let station = try station(rig, directory, settings: ["printer = badge", "printer_failover = badge2", "print_timeout_seconds = 3"])
        defer { station.kill9() }

        station.send("DEMO-0001")
        station.wait(limit: 60) { _ in states(station, job: 1).contains("may_have_printed") || states(station, job: 1).last == "printed" }
        #expect(states(station, job: 1).last == "may_have_printed", "\(states(station, job: 1))")
        station.wait(limit: 30) { lines in lines.contains { $0.contains(#""event":"stale_badges""#) && $0.contains(#""possible_duplicates":1"#) } }
        #expect(station.output.contains { $0.contains(#""event":"stale_badges""#) && $0.contains(#""possible_duplicates":1"#) },
                "the operator is asked, and told it may already have printed")
        Thread.sleep(forTimeInterval: 3)
        #expect(printed(rig, "badge2").isEmpty, "failover did not print a badge the first printer may have printed")

        // The door goes on: the next badge prints on the other printer.
        station.send("DEMO-0002")
        station.wait(limit: 60) { _ in states(station, job: 2).last == "printed" }
        #expect(printed(rig, "badge2") == ["Badge job 2"], "\(printed(rig, "badge2"))")
    }
}
