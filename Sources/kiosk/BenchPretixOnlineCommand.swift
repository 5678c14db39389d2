import ArgumentParser
import CheckInCore
import Foundation
import KioskStore
import PretixSync

/// `kiosk bench pretix-online`: an online-first scan's feedback time against pretix's own redeem
/// time in the same run (README Performance).
struct BenchPretixOnlineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pretix-online",
        abstract: "Benchmark an online-first scan against pretix's own redeem time (a new device's token; e.g. the rig's big event: Kiosk/pretix-server.sh start DIR --orders 1000).")

    @OptionGroup var pretix: PretixBenchTarget
    @Option(help: "Scans per side (the event needs twice as many unused paid tickets).") var scans = 200
    @Flag(help: "Print one JSON document.") var json = false

    func validate() throws {
        guard (1...10_000).contains(scans) else { throw ValidationError("--scans must be 1 to 10000") }
    }

    func run() async throws {
        CommandOutput.bootstrapLogging()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-pretix-online-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let figures = try await PretixOnlineBenchmark.run(server: pretix.url, token: pretix.token, event: pretix.event, list: pretix.list, scans: scans, root: root,
                                                          identity: .thisStation)
        let (baseline, station) = (Percentiles(figures.baseline), Percentiles(figures.station))
        let (b50, b99, s50, s99) = (baseline.value(50), baseline.value(99), station.value(50), station.value(99))
        if json {
            CommandOutput.printJSON([
                "scans": .int(figures.station.count), "baseline_p50_ms": .double(b50), "baseline_p99_ms": .double(b99),
                "station_p50_ms": .double(s50), "station_p99_ms": .double(s99),
                "baseline_admitted": .int(figures.baselineAdmitted), "station_admitted": .int(figures.stationAdmitted)])
        } else {
            print("pretix online-first scan, \(figures.station.count) scans per side, alternating")
            print(String(format: "  baseline, pretix's redeem alone:       p50 %6.1f ms  p99 %6.1f ms  (%d admitted)", b50, b99, figures.baselineAdmitted))
            print(String(format: "  station, asked, decided and recorded:  p50 %6.1f ms  p99 %6.1f ms  (%d admitted; %+.1f ms at p50)",
                         s50, s99, figures.stationAdmitted, s50 - b50))
        }
    }
}
