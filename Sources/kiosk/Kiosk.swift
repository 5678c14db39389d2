import ArgumentParser

@main
struct Kiosk: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk",
        abstract: "Event check-in station.",
        subcommands: []
    )
}
