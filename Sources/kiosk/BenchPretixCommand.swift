import ArgumentParser
import Foundation
import KioskStore
import PretixSync

/// `kiosk bench pretix`: the first download of a pretix event's orders into a station, against
/// a plain HTTP client paging through the same endpoint in the same run (README Performance).
struct BenchPretixCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pretix",
        abstract: "Benchmark the first download of a pretix event's orders (a new device's token; e.g. the rig's big event: Kiosk/pretix-server.sh start DIR --orders 20000).")

    @OptionGroup var pretix: PretixBenchTarget
    @Option(help: "Rounds of each side.") var rounds = 3
    @Flag(help: "Print one JSON document.") var json = false

    func run() async throws {
        CommandOutput.bootstrapLogging()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-pretix-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let figures = try await PretixDownloadBenchmark.run(server: pretix.url, token: pretix.token, event: pretix.event, list: pretix.list, rounds: rounds, root: root,
                                                           identity: .thisStation)
        let baseline = PretixDownloadBenchmark.Figures.median(figures.baseline)
        let station = PretixDownloadBenchmark.Figures.median(figures.station)
        if json {
            CommandOutput.printJSON([
                "guests": .int(figures.guests), "pages": .int(figures.pages), "megabytes": .double(Double(figures.bytes) / 1_048_576),
                "baseline_seconds": .double(baseline), "station_seconds": .double(station), "overhead_percent": .double(figures.overheadPercent),
                "rounds": .int(figures.station.count)])
        } else {
            print(String(format: "pretix first download, %d guests, %d pages, %.1f MB (median of %d rounds)",
                         figures.guests, figures.pages, Double(figures.bytes) / 1_048_576, figures.station.count))
            print(String(format: "  baseline, plain HTTP paging:      %.2f s", baseline))
            print(String(format: "  station, download and store:     %.2f s  (%+.0f %%)", station, figures.overheadPercent))
        }
    }
}
