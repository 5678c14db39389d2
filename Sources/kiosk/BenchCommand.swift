import ArgumentParser

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks: run on a release build; each prints its figures next to a baseline.",
        subcommands: [BenchStoreCommand.self])
}
