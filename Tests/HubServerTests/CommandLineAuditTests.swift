import Foundation
import HubServer
import KioskTestSupport
import Logging
import Testing

/// What an organizer changes with `checkin-hub` on the hub's machine is in the organizer log,
/// like the same change made on the dashboard: the same kind of entry, in the same transaction,
/// naming the command line and the system account as the actor.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking) struct CommandLineAuditTests {
    let hub = BuiltProducts.executable("checkin-hub")

    @Test(arguments: StoreContractTests.databaseKinds) func anEventCreatedAndStaffDisabledFromTheCommandLineAreInTheOrganizerLog(kind: String) async throws {
        let directory = TemporaryDirectory("cli-audit")
        defer { directory.remove() }
        let db = kind == "sqlite" ? "sqlite:" + directory.appending("hub.sqlite").path : try PostgresCluster.shared.get().createDatabase()
        func checkinHub(_ arguments: [String], stdin: String? = nil) throws {
            let result = try run(hub, arguments + ["--db", db], stdin: stdin)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        try checkinHub(["event", "create", "--name", "Gala", "--id", "ev"])
        try checkinHub(["staff", "add", "--email", "sam@x.org", "--name", "Sam", "--role", "staff"], stdin: "door-pass-1\n")
        try checkinHub(["staff", "assign", "--event", "ev", "--email", "sam@x.org"])
        try checkinHub(["staff", "disable", "--email", "sam@x.org"])

        let store = try HubDatabase.open(db, logger: Logger(label: "test"))
        let eventLog = try await store.organizerActions(event: "ev")
        let accountLog = try await store.accountActions()
        await store.close()
        #expect(eventLog.map(\.kind) == [.eventCreated, .staffAssigned])
        #expect(eventLog.map(\.subject) == ["ev", "sam@x.org"])
        #expect(accountLog.map(\.kind) == [.staffAdded, .staffDisabled])
        #expect(accountLog.map(\.subject) == ["sam@x.org", "sam@x.org"])
        for entry in eventLog + accountLog {
            #expect(entry.actorID == "checkin-hub")
            #expect(entry.actorName.hasPrefix("checkin-hub command line ("), "the log says who acted: \(entry.actorName)")
        }
    }
}
