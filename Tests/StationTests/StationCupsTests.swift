import Foundation
import KioskTestSupport
import PrintTestSupport
import Testing

/// `kiosk run --headless --printer badge` against a private cupsd whose printer simulator is
/// unplugged, then plugged back in: the door never waits for the printer.
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct StationCupsTests {
    @Test func withThePrinterUnpluggedSixAttendeesAreAnsweredAtOnceAndTheirBadgesPrintWhenItIsBack() throws {
        let rig = try CupsRig(queues: ["badge"])
        defer { rig.stop() }
        let directory = TemporaryDirectory("station-cups")
        defer { directory.remove() }
        try rig.killPrinter("badge")
        let log = directory.appending("station.log")
        let station = try StationProcess(["run", "--headless", "--printer", "badge", "--data-dir", directory.appending("data").path],
                                         headless: true, environment: ["CUPS_SERVER": rig.server], log: log)
        // What the station and the printer said, should the badges not come out (a loaded CI run once waited for ever).
        func story() -> String {
            let states = station.output.filter { $0.contains("print_state") || $0.contains(#""event":"health""#) }.suffix(20)
            let said = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").suffix(30)
            return (states + ["-- station log --"] + said.map(String.init)).joined(separator: "\n")
        }
        defer { station.kill9() }
        station.wait { lines in lines.contains { $0.contains(#""event":"ready""#) } }
        var sent: [(code: String, at: ContinuousClock.Instant)] = []
        for index in 1...6 {
            let code = String(format: "DEMO-%04d", index)
            sent.append((code, .now))
            station.send(code)
            usleep(300_000)
        }
        station.wait { lines in lines.filter { $0.contains(#""event":"decision""#) }.count == 6 }
        let decisions = station.timedOutput.filter { $0.text.contains(#""event":"decision""#) }
        #expect(decisions.count == 6)
        for (index, decision) in decisions.enumerated() {
            #expect(decision.text.contains(#""decision":"admitted""#) && decision.text.contains(sent[index].code))
            let waited = decision.at - sent[index].at
            #expect(waited < .milliseconds(1_500), "\(sent[index].code) waited \(waited) for its answer")
            #expect(decision.text.contains(#""badge":{"job":"#), "the answer names the badge job")
        }
        // The queue holds the badges and says why, then prints each once, in order, when the
        // printer is back.
        station.wait { lines in lines.contains { $0.contains(#""event":"print_state""#) && $0.contains(#""state":"held""#) } }
        try rig.restartPrinter("badge")
        let deadline = Date().addingTimeInterval(120)
        while rig.outputs("badge").count < 6 && Date() < deadline { usleep(200_000) }
        let outputs = rig.outputs("badge").map { $0.deletingPathExtension().lastPathComponent }
        #expect(Set(outputs) == Set((1...6).map { "Badge job \($0)" }), "\(outputs)\n\(story())")
        guard outputs.count == 6 else { return }
        station.wait { lines in lines.filter { $0.contains(#""event":"print_state""#) && $0.contains(#""state":"printed""#) }.count == 6 }
        #expect(station.output.filter { $0.contains(#""state":"printed""#) }.count == 6)
        #expect(!station.output.contains { $0.contains("DEMO-0001") && $0.contains("print_state") }, "no ticket code in print lines")
    }
}
