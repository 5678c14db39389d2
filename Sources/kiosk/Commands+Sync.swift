import ArgumentParser

// The sync area's commands and benchmarks, listed here so areas never edit the same lines.

extension Kiosk {
    static var syncCommands: [any ParsableCommand.Type] {
        [SignInCommand.self, EventsCommand.self, UseCommand.self, SyncCommand.self, SignOutCommand.self, PretixCommand.self]
    }
}

extension BenchCommand {
    static var syncBenchmarks: [any ParsableCommand.Type] { [BenchSyncCommand.self, BenchPretixCommand.self, BenchPretixOnlineCommand.self] }
}
