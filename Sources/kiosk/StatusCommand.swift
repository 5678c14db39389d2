import ArgumentParser
import CheckInCore
import KioskStore
import PretixClient
import PretixSync
import RosterSync
import Station

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show schema version, storage state, roster size, pending sync and device id.")

    @OptionGroup var options: StationOptions

    func run() async throws {
        try await CommandOutput.run(json: options.json) {
            let database = try options.openDatabase(readOnly: true)
            let status = try database.status()
            let session = try? SessionFile(database: database).load()
            let byEvent = database.storage.isUsable ? (try? PendingByEvent.report(database, session: session)) ?? [] : []
            let protection = database.keyProtection
            let pretixFile = PretixLinkFile<PretixLink>(database: database)
            let pretixRead = database.storage.isUsable ? Result { () throws(PretixSyncError) in try pretixFile.load() } : .success(nil)
            let pretix = try? pretixRead.get()
            let pretixProblem: PretixSyncError? = if case .failure(let problem) = pretixRead { problem } else { nil }
            if options.json {
                var json = status.json
                if case .object(var members) = json, case .object(var sync)? = members["sync"] {
                    sync["by_event"] = .array(byEvent.map(\.json))
                    members["sync"] = .object(sync)
                    // The running station's own view: printer, camera, hub, storage, clock.
                    members["run"] = HealthFile(dataDirectory: database.dataDirectory).statusJSON()
                    members["storage_key"] = protection.json(location: database.keySource.describe(store: database.storeID))
                    members["pretix"] = pretix.map { link -> JSONValue in
                        ["server": .string(Sanitized.text(link.server)), "device": .string(Sanitized.text(link.device.name)),
                         "event": .string(Sanitized.text(link.event)), "list": .int(link.list), "list_name": .string(Sanitized.text(link.listName))]
                    } ?? pretixProblem.map { ["unreadable": .string($0.description)] }
                      ?? ((try? database.setting(.pretixNotice)).flatMap { $0 }.map { ["ended": .string($0)] } ?? .null)
                    json = .object(members)
                }
                CommandOutput.printJSON(json)
            } else {
                print("Storage:   v\(status.schemaVersion) — \(status.storage.message)")
                if let action = status.storage.action { print("           \(action)") }
                print("Roster:    \(status.guests) guests, \(status.checkedIn) checked in"
                      + (status.searchPending > 0 ? ", \(status.searchPending) still being indexed for search" : ""))
                if let pretix {
                    print("pretix:    \(Sanitized.text(pretix.server)) as device \(Sanitized.text(pretix.device.name)), event \(Sanitized.text(pretix.event)), "
                          + "list \(Sanitized.text(pretix.listName)); \(status.pending) waiting to be sent"
                          + (status.rejected > 0 ? ", \(status.rejected) refused by pretix" : "") + (status.lastPull.map { ", last download \($0)" } ?? ""))
                } else if let pretixProblem {
                    print("pretix:    \(pretixProblem.description) Nothing is sent meanwhile; \(status.pending) waiting to be sent.")
                } else {
                    if let notice = try? database.setting(.pretixNotice) { print("pretix:    \(Sanitized.text(notice))") }
                    print("Sync:      \(status.syncState), \(status.pending) pending" + (status.rejected > 0 ? ", \(status.rejected) refused by the hub" : ""))
                    for group in byEvent { print("           \(group.summary)") }
                }
                if let clock = status.clock.message { print("Clock:     \(clock)") }
                print("Key:       \(protection.words)")
                if let advice = protection.advice { print("           \(advice)") }
                print("Device:    \(status.deviceID)")
            }
            return 0
        }
    }
}
