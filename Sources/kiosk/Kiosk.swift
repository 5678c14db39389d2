import ArgumentParser

@main
struct Kiosk: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk",
        abstract: "Event check-in station: scan tickets, print badges, sync with the hub.",
        // Each area lists its commands in its own file (Commands+<Area>.swift).
        subcommands: foundationCommands + qrCommands + badgeCommands + syncCommands + stationCommands
    )

    static var foundationCommands: [any ParsableCommand.Type] {
        [MigrateCommand.self, ImportCommand.self, CheckInCommand.self, SearchCommand.self, StatusCommand.self, BenchCommand.self]
    }
}
