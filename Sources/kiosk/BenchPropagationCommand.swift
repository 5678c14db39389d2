import ArgumentParser
import Foundation
import KioskStore
import Logging
import Station

/// `kiosk bench propagation`: Door A's admission → Door B knows it, following the hub's changes
/// next to the interval pull alone, in one run (see ``PropagationBenchmark``).
struct BenchPropagationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "propagation",
        abstract: "Benchmark how fast one door learns of another's admissions through the hub (release build).",
        discussion: """
            Two stations in this process, each with its own store and sync engine, signed in to --hub (B to --hub-b, \
            another hub process on the same PostgreSQL, when given). Each round A admits a guest; the time runs from \
            A's commit to B's store knowing it. Baseline: the interval pull alone (following off).
            """)

    @Option(help: "Hub URL for Door A (and B unless --hub-b).") var hub: String
    @Option(name: .customLong("hub-b"), help: "Another hub process's URL for Door B (same database).") var hubB: String?
    @Option(help: "Staff e-mail.") var email: String
    @Option(help: "Event id (its first guests must not be checked in yet).") var event: String
    @Option(name: .customLong("password-env"), help: "Environment variable holding the password.") var passwordEnv = "KIOSK_PASSWORD"
    @Option(help: "Admissions to time in each run.") var rounds = 40
    @Flag(help: "Print one JSON document.") var json = false

    func validate() throws {
        if rounds <= 0 { throw ValidationError("--rounds must be positive") }
        if URL(string: hub)?.host == nil || hubB.map({ URL(string: $0)?.host == nil }) == true {
            throw ValidationError("--hub and --hub-b take http(s)://host:port")
        }
    }

    func run() async throws {
        CommandOutput.bootstrapLogging()
        var logger = Logger(label: "kiosk.bench.propagation")
        logger.logLevel = .error
        let password = try SyncPassword.read(fd: nil, environmentVariable: passwordEnv)
        let benchmark = PropagationBenchmark(hubA: DoorBenchmark.Hub(url: URL(string: hub)!, email: email, password: password, event: event),
                                             hubB: hubB.flatMap(URL.init(string:)), rounds: rounds)
        let (baseline, following) = try await benchmark.run(logger: logger)
        func figures(_ run: PropagationBenchmark.Figures) -> JSONValue {
            ["p50_ms": .double(run.percentile(50)), "p95_ms": .double(run.percentile(95)), "p99_ms": .double(run.percentile(99)),
             "max_ms": .double(run.milliseconds.max() ?? 0), "rounds": .int(run.milliseconds.count), "missed": .int(run.missed)]
        }
        if json {
            CommandOutput.printJSON(["hub_a": .string(hub), "hub_b": .string(hubB ?? hub), "rounds": .int(rounds),
                                     "baseline_interval_pull": figures(baseline), "following": figures(following), "target_p95_ms": 1000])
        } else {
            print("propagation: Door A at \(hub) → Door B at \(hubB ?? hub), \(rounds) admissions")
            for (name, run) in [("baseline (interval pull)", baseline), ("following (long-poll)", following)] {
                print(String(format: "  %@: p50 %.0f ms  p95 %.0f ms (target ≤ 1000)  p99 %.0f ms  max %.0f ms  missed %d", name,
                             run.percentile(50), run.percentile(95), run.percentile(99), run.milliseconds.max() ?? 0, run.missed))
            }
        }
    }
}
