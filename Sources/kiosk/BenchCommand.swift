import ArgumentParser

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks: run on a release build; each prints its figures next to a baseline.",
        // Each area lists its benchmarks in its own file (Commands+<Area>.swift).
        subcommands: [BenchStoreCommand.self] + qrBenchmarks + badgeBenchmarks + syncBenchmarks + stationBenchmarks)
}
