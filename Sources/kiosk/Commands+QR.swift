import ArgumentParser

// The qr area's commands and benchmarks, listed here so areas never edit the same lines.

extension Kiosk {
    static var qrCommands: [any ParsableCommand.Type] { [DecodeCommand.self, ScanCommand.self] }
}

extension BenchCommand {
    static var qrBenchmarks: [any ParsableCommand.Type] { [] }
}
