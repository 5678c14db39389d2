import ArgumentParser
import CheckInCore
import Foundation

@main
struct Kiosk: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk",
        abstract: "Event check-in station: scan tickets, print badges, sync with the hub.",
        version: ProductVersion.current,
        // Each area lists its commands in its own file (Commands+<Area>.swift). The station itself
        // (`run`) comes first: it is where a newcomer starts.
        subcommands: stationCommands + foundationCommands + qrCommands + badgeCommands + syncCommands
    )

    /// Guest data, tokens and badges are for the station's user alone, whatever umask the shell
    /// or the unit gave: everything this process creates is 0600 (folders 0700).
    static func main() async {
        umask(0o077)
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    static var foundationCommands: [any ParsableCommand.Type] {
        [MigrateCommand.self, ImportCommand.self, CheckInCommand.self, SearchCommand.self, ExportCommand.self, StatusCommand.self, StorageCommand.self, BenchCommand.self]
    }
}
