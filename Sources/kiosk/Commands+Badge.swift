import ArgumentParser

// The badge area's commands and benchmarks, listed here so areas never edit the same lines.

extension Kiosk {
    static var badgeCommands: [any ParsableCommand.Type] { [BadgeCommand.self, PrintersCommand.self] }
}

extension BenchCommand {
    static var badgeBenchmarks: [any ParsableCommand.Type] { [] }
}
