import ArgumentParser
import Foundation
import KioskStore
import RosterCSV

/// `kiosk bench startup`: process start → ready-for-scan of `kiosk run --headless` on a data
/// directory holding a generated roster, next to `kiosk status` (open + migrate check + one
/// query, then exit) on the same directory as the baseline.
struct BenchStartupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "startup", abstract: "Benchmark the station's start-up to ready-for-scan.")

    @Option(help: "Guests in the generated roster.")
    var guests = 100_000

    @Option(help: "Starts to time.")
    var runs = 20

    @Flag(help: "Print one JSON document.")
    var json = false

    func run() async throws {
        CommandOutput.bootstrapLogging()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-startup-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data")
        let database = try KioskDatabase.open(dataDirectory: data, key: .besideThrowawayStore(data))
        _ = try await database.roster.importRoster(try RosterCSVParser.parse(Data(BenchRoster.csv(guests: guests).utf8)))
        try await database.searchIndex.finishSearchIndex()
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()

        var readyMs: [Double] = [], stopMs: [Double] = [], baselineMs: [Double] = [], inProcessMs: [Double] = []
        for _ in 0..<runs {
            let process = Process()
            process.executableURL = executable
            process.arguments = ["run", "--headless", "--no-demo", "--printer", "none", "--data-dir", data.path]
            let out = Pipe()
            process.standardOutput = out
            process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
            process.standardError = FileHandle.nullDevice
            let start = ContinuousClock.now
            try process.run()
            var buffer = Data()
            while !buffer.contains(10) {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
            }
            readyMs.append((ContinuousClock.now - start).milliseconds)
            if let line = String(data: buffer, encoding: .utf8)?.split(separator: "\n").first,
               let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
               object["event"] as? String == "ready", let figure = object["startup_ms"] as? Double {
                inProcessMs.append(figure)
            } else {
                throw CommandFailure("kiosk run did not report ready: \(String(decoding: buffer, as: UTF8.self))", exitCode: ExitStatus.storage)
            }
            let stopStart = ContinuousClock.now
            process.terminate()
            process.waitUntilExit()
            stopMs.append((ContinuousClock.now - stopStart).milliseconds)

            let baseline = Process()
            baseline.executableURL = executable
            baseline.arguments = ["status", "--json", "--data-dir", data.path]
            baseline.standardOutput = FileHandle.nullDevice
            baseline.standardError = FileHandle.nullDevice
            let baselineStart = ContinuousClock.now
            try baseline.run()
            baseline.waitUntilExit()
            baselineMs.append((ContinuousClock.now - baselineStart).milliseconds)
        }
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.map(String.init) ?? "?"
        if json {
            CommandOutput.printJSON([
                "guests": .int(guests), "runs": .int(runs), "load_average": .string(load),
                "ready_ms": Percentiles(readyMs).json(["p50", "p95", "p99"]),
                "in_process_ready_ms": Percentiles(inProcessMs).json(["p50", "p95"]),
                "sigterm_stop_ms": Percentiles(stopMs).json(["p50", "p95"]),
                "baseline_kiosk_status_ms": Percentiles(baselineMs).json(["p50", "p95"]),
            ])
        } else {
            print("kiosk run --headless, \(guests) guests, \(runs) starts (load average \(load)):")
            print("  process start → ready ms:  \(Percentiles(readyMs).text)  (target ≤ 1500, goal 300)")
            print("  in-process start → ready:  \(Percentiles(inProcessMs).text)")
            print("  SIGTERM → exit ms:         \(Percentiles(stopMs).text)")
            print("  baseline kiosk status ms:  \(Percentiles(baselineMs).text)")
        }
    }
}
