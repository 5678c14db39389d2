import ArgumentParser

// The station area's commands and benchmarks, listed here so areas never edit the same lines.

extension Kiosk {
    static var stationCommands: [any ParsableCommand.Type] { [RunCommand.self] }
}

extension BenchCommand {
    static var stationBenchmarks: [any ParsableCommand.Type] { [BenchStartupCommand.self, BenchDoorCommand.self, BenchPropagationCommand.self] }
}
