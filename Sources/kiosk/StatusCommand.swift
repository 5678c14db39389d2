import ArgumentParser
import KioskStore

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show schema version, storage state, roster size, pending sync and device id.")

    @OptionGroup var options: StationOptions

    func run() async throws {
        try await CommandOutput.run(json: options.json) {
            let database = try options.openDatabase()
            let status = try database.status()
            if options.json {
                CommandOutput.printJSON(status.json)
            } else {
                print("Storage:   v\(status.schemaVersion) — \(status.storage.message)")
                if let action = status.storage.action { print("           \(action)") }
                print("Roster:    \(status.guests) guests, \(status.checkedIn) checked in"
                      + (status.searchPending > 0 ? ", \(status.searchPending) still being indexed for search" : ""))
                print("Sync:      \(status.syncState), \(status.pending) pending" + (status.rejected > 0 ? ", \(status.rejected) refused by the hub" : ""))
                print("Device:    \(status.deviceID)")
            }
            return 0
        }
    }
}
