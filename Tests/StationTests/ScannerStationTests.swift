import Foundation
import KioskTestSupport
import Testing

/// `kiosk run --headless` with a serial scanner named in the configuration (a pseudo-terminal
/// behind a udev-style link): the scanner runs beside standard input, its codes are decided as
/// scanner check-ins, and unplugging it is a health state, not a crash.
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct ScannerStationTests {
    func events(_ station: StationProcess) -> [[String: Any]] {
        station.output.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func scannerState(_ event: [String: Any]) -> String? {
        guard event["event"] as? String == "health" else { return nil }
        return (event["scanner"] as? [String: Any])?["state"] as? String
    }

    func decision(_ station: StationProcess, code: String) -> [String: Any]? {
        events(station).first { $0["event"] as? String == "decision" && $0["code"] as? String == code }
    }

    @Test func aSerialScannerChecksInBesideStandardInputAndUnpluggingItIsAHealthState() throws {
        let directory = TemporaryDirectory("kiosk-scanner")
        defer { directory.remove() }
        let port = try PseudoTerminal()
        let link = DeviceLink(url: directory.appending("kiosk-scanner"))
        try link.point(to: port.slavePath)
        let configuration = directory.appending("kiosk.conf")
        try "scanner = \(link.url.path)\nprinter = none\n".write(to: configuration, atomically: true, encoding: .utf8)
        let station = try StationProcess(["run", "--headless", "--config", configuration.path, "--data-dir", directory.appending("data").path],
                                         headless: true)
        defer { station.kill9() }

        eventually { events(station).contains { scannerState($0) == "reading" } }
        let ready = try #require(events(station).first { $0["event"] as? String == "ready" })
        #expect((ready["scanning"] as? String)?.contains("scanner \(link.url.path)") == true)

        port.write("DEMO-0001\r\n")
        eventually { decision(station, code: "DEMO-0001") != nil }
        #expect(decision(station, code: "DEMO-0001")?["source"] as? String == "scanner")
        #expect(decision(station, code: "DEMO-0001")?["decision"] as? String == "admitted")

        station.send("DEMO-0002")
        eventually { decision(station, code: "DEMO-0002") != nil }
        #expect(decision(station, code: "DEMO-0002") != nil, "standard input still reads codes")

        port.close()
        eventually { events(station).contains { ["unplugged", "missing"].contains(scannerState($0)) } }
        let fault = try #require(events(station).last { scannerState($0) != nil && scannerState($0) != "reading" })
        let fix = ((fault["scanner"] as? [String: Any])?["fix"] as? String) ?? ""
        #expect(fix.contains("plug"), "\(fault)")
        station.send("DEMO-0003")
        eventually { decision(station, code: "DEMO-0003") != nil }
        #expect(decision(station, code: "DEMO-0003") != nil, "the station runs on without its scanner")
    }
}
