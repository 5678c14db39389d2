import ArgumentParser
import KioskStore
import RosterSync
import Station

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show schema version, storage state, roster size, pending sync and device id.")

    @OptionGroup var options: StationOptions

    func run() async throws {
        try await CommandOutput.run(json: options.json) {
            let database = try options.openDatabase()
            let status = try database.status()
            let session = try? SessionFile(database: database).load()
            let byEvent = database.storage.isUsable ? (try? PendingByEvent.report(database, session: session)) ?? [] : []
            let protection = database.keyProtection
            if options.json {
                var json = status.json
                if case .object(var members) = json, case .object(var sync)? = members["sync"] {
                    sync["by_event"] = .array(byEvent.map(\.json))
                    members["sync"] = .object(sync)
                    // The running station's own view: printer, camera, hub, storage, clock.
                    members["run"] = HealthFile(dataDirectory: database.dataDirectory).statusJSON()
                    members["storage_key"] = protection.json(location: database.keySource.describe(store: database.storeID))
                    json = .object(members)
                }
                CommandOutput.printJSON(json)
            } else {
                print("Storage:   v\(status.schemaVersion) — \(status.storage.message)")
                if let action = status.storage.action { print("           \(action)") }
                print("Roster:    \(status.guests) guests, \(status.checkedIn) checked in"
                      + (status.searchPending > 0 ? ", \(status.searchPending) still being indexed for search" : ""))
                print("Sync:      \(status.syncState), \(status.pending) pending" + (status.rejected > 0 ? ", \(status.rejected) refused by the hub" : ""))
                for group in byEvent { print("           \(group.summary)") }
                if let clock = status.clock.message { print("Clock:     \(clock)") }
                print("Key:       \(protection.words)")
                if let advice = protection.advice { print("           \(advice)") }
                print("Device:    \(status.deviceID)")
            }
            return 0
        }
    }
}
