import ArgumentParser

@main
struct Kiosk: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk",
        abstract: "Event check-in station: scan tickets, print badges, sync with the hub.",
        subcommands: [
            MigrateCommand.self,
            ImportCommand.self,
            CheckInCommand.self,
            StatusCommand.self,
            BenchCommand.self,
        ]
    )
}
