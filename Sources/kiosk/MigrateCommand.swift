import ArgumentParser
import KioskStore

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply pending storage migrations and print the schema version.",
        discussion: "Every station command migrates on start; this one only migrates. Set KIOSK_MIGRATIONS_DIR to apply the files of another folder (support only).")

    @OptionGroup var options: StationOptions

    func run() async throws {
        try await CommandOutput.run(json: options.json) {
            let database = try options.openDatabase()
            let version = try database.schemaVersion()
            if options.json {
                CommandOutput.printJSON([
                    "schema_version": .int(version),
                    "latest_version": .int(database.latestVersion),
                    "applied": .array(database.appliedAtOpen.map(JSONValue.string)),
                    "storage": .object(database.storage.json),
                ])
            } else {
                let applied = database.appliedAtOpen.isEmpty ? "nothing to apply" : "applied " + database.appliedAtOpen.joined(separator: ", ")
                print("Schema version \(version) (\(applied)).")
                if !database.storage.isUsable { CommandOutput.printError(database.storage.message) }
            }
            return database.storage.isUsable ? 0 : ExitStatus.storageUnavailable
        }
    }
}
